import Dispatch

/// Who wants to know when a store's side effects end (see ``SideEffectEnd``): functions that
/// interceptors register through their context, usually as the store starts.
///
/// A store nobody observes pays one flag read per side effect: the flag is raised by the first
/// observer, and only then does the runner read the clock and make ends.
final class SideEffectEndObservers: Sendable {
    /// Raised once an observer is added; read without the lock.
    private let observed = AtomicFlag()
    /// The observers, in the order added (their lock is never held while one runs).
    private let observers = Locked<[@Sendable (SideEffectEnd) -> Void]>([])

    /// Whether anyone observes ends.
    @inline(__always)
    var isObserved: Bool {
        observed.isRaised
    }

    /// Adds `observer`, called with every end from now on.
    func add(_ observer: @escaping @Sendable (SideEffectEnd) -> Void) {
        observers.withLock { $0.append(observer) }
        observed.raise()
    }

    /// Tells every observer about `end`, on the calling thread.
    func report(_ end: SideEffectEnd) {
        let current = observers.withLock { $0 }
        for observer in current {
            observer(end)
        }
    }

    /// A reading of the monotonic clock, in nanoseconds, for ``report(_:sequence:startedAt:result:cancelledBy:)``.
    static var now: UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// The end of a side effect whose body began at `started` (a reading of ``now``; nil: it never
    /// began) and ended now, with its body's result, or with the cancellation that overrides it.
    func report(
        _ item: any Dispatchable, sequence: UInt64, startedAt started: UInt64?,
        result: Result<any Sendable, any Error>?, cancelledBy canceller: SideEffectEnd.Canceller?
    ) {
        let outcome: SideEffectEnd.Outcome = if let canceller {
            .cancelled(by: canceller)
        } else {
            switch result {
            case .failure(let error): .failed(error)
            case .success, nil: .succeeded
            }
        }
        let duration = started.map { Duration.nanoseconds(Int64(clamping: Self.now &- $0)) } ?? .zero
        report(SideEffectEnd(item: item, sequence: sequence, outcome: outcome, began: started != nil, duration: duration))
    }
}
