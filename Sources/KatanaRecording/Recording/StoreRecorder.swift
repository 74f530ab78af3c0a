import Foundation
import Katana

/// The interceptor that records every item its store handles, with where it came from, how it
/// went and the state after it, into one or more sinks.
///
/// Install it first, so that it sees every item before any other interceptor can replace or block
/// it: items from outside, those side effects and observer rules dispatch, and 2.x actions.
///
/// ```swift
/// let flightRecorder = FlightRecorder<AppState>(capacity: 1_000)
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors {
///     StoreRecorder(to: flightRecorder)
///     ObserverInterceptor.rules { ... }
/// })
/// ```
///
/// It keeps items and states as values and encodes nothing on the store's queue: a sink encodes
/// later, elsewhere (docs/Recording.md).
public struct StoreRecorder<S: State>: Interceptor {
    private let journal: Journal
    /// The store's context, once it starts.
    private var context: (any AnySideEffectContext)?

    /// A recorder that puts what it records into `sinks`, in order.
    public init(to sinks: any RecordingSink<S>...) {
        journal = Journal(sinks: sinks)
    }

    /// A recorder that puts what it records into `sinks`, in order.
    public init(to sinks: [any RecordingSink<S>]) {
        journal = Journal(sinks: sinks)
    }

    /// Reads the store's state before any item and tells the sinks.
    public mutating func start(in context: any AnySideEffectContext) {
        self.context = context
        let state = context.getAnyState()
        guard let initial = state as? S else {
            journal.report(
                "KatanaRecording: a StoreRecorder<\(String(reflecting: S.self))> was installed in a store whose state is "
                    + "\(String(reflecting: type(of: state))); it records nothing. Make it a StoreRecorder<\(String(reflecting: type(of: state)))>."
            )
            return
        }
        journal.begin(stateType: String(reflecting: S.self), initialState: initial)
    }

    /// Passes the item on, then records it with how it went and the state after it.
    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        guard let context else {
            try next(item)
            return
        }
        let intercepted = InterceptedItem.current
        do {
            try next(item)
        } catch {
            record(item, intercepted, outcome: InterceptedItem.current?.hasReachedStore == true ? .handled : .rejected("\(error)"), context)
            throw error
        }
        record(item, intercepted, outcome: InterceptedItem.current?.hasReachedStore == false ? .blocked : .handled, context)
    }

    private func record(
        _ item: any Dispatchable, _ intercepted: InterceptedItem?, outcome: RecordedOutcome, _ context: any AnySideEffectContext
    ) {
        guard let state = context.getAnyState() as? S else { return }
        journal.append(
            item, sequence: intercepted?.sequence ?? 0, origin: intercepted?.origin ?? .outside, outcome: outcome, stateAfter: state
        )
    }

    /// What every copy of a recorder shares: the sinks, the count of items, and what kind each item
    /// type is, behind one lock, so that the sinks get the items one at a time, in one order.
    private final class Journal: @unchecked Sendable {
        // @unchecked: `count`, `kinds` and `started` are only touched with `lock` held; `sinks` is a constant.
        private let lock = NSLock()
        private let sinks: [any RecordingSink<S>]
        private var count: UInt64 = 0
        private var kinds: [ObjectIdentifier: RecordedItemKind] = [:]
        private var started = false

        init(sinks: [any RecordingSink<S>]) {
            self.sinks = sinks
        }

        func begin(stateType: String, initialState: S) {
            lock.lock()
            defer { lock.unlock() }
            guard !started else {
                report("KatanaRecording: a StoreRecorder was started by a second store; each store needs a StoreRecorder and sinks of its own. The second store is not recorded.")
                return
            }
            started = true
            for sink in sinks {
                sink.begin(stateType: stateType, initialState: initialState)
            }
        }

        func append(_ item: any Dispatchable, sequence: UInt64, origin: DispatchOrigin, outcome: RecordedOutcome, stateAfter: S) {
            let time = Date()
            lock.lock()
            defer { lock.unlock() }
            guard started else { return }
            count += 1
            let kind = kind(of: item)
            let recorded = RecordedItem(
                position: count, sequence: sequence, time: time, origin: origin,
                item: item, kind: kind, outcome: outcome, stateAfter: stateAfter
            )
            for sink in sinks {
                sink.append(recorded)
            }
        }

        /// The kind of `item`, worked out once per type (called with `lock` held).
        private func kind(of item: any Dispatchable) -> RecordedItemKind {
            let type = ObjectIdentifier(Swift.type(of: item))
            if let kind = kinds[type] {
                return kind
            }
            let kind: RecordedItemKind =
                if item is any AnyStateUpdater, !(item is any AnySideEffect) {
                    .stateUpdater
                } else if item is any AnySideEffect || item is any AsyncSideEffect {
                    .sideEffect
                } else {
                    .other
                }
            kinds[type] = kind
            return kind
        }

        func report(_ message: String) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
    }
}
