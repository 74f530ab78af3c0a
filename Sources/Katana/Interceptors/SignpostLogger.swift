#if canImport(os)
import os
#endif

/// Traces every item a store handles: how long each state updater and each side effect took.
///
/// Give one to the store through ``Store/Configuration/signpostLogger``. On every platform it calls
/// its hook at the beginning and end of each handled item, so a Linux service can feed its own
/// tracing; on Apple platforms it also emits signpost intervals that Instruments shows.
public final class SignpostLogger: Sendable {
    /// What kind of item an event is about.
    public enum Kind: String, Sendable {
        /// A state updater, applied on the store's serial queue.
        case stateUpdater
        /// A side effect (synchronous, returning or async), run concurrently.
        case sideEffect
    }

    /// One beginning or end of a handled item.
    public struct Event: Sendable {
        /// Whether the item started or finished, with how long it took when it finished.
        public enum Phase: Sendable, Equatable {
            /// The store started handling the item.
            case begin
            /// The store finished handling the item, after `duration`.
            case end(duration: Duration)
        }

        /// The item's type name.
        public let name: String
        /// Whether the item is a state updater or a side effect.
        public let kind: Kind
        /// Beginning or end.
        public let phase: Phase
        /// Pairs the end event with its begin event (unique per logger).
        public let id: UInt64
    }

    /// An interval that has begun and not yet ended.
    struct Interval {
        let name: String
        let kind: Kind
        let id: UInt64
        let start: ContinuousClock.Instant
        #if canImport(os)
        let signpostState: OSSignpostIntervalState
        #endif
    }

    private let hook: @Sendable (Event) -> Void
    // Guarded by its own lock.
    private let nextID = Locked<UInt64>(0)
    #if canImport(os)
    private let signposter = OSSignposter(subsystem: "Katana", category: "Dispatch")
    #endif

    /// Creates a logger that calls `hook` with every begin and end event.
    ///
    /// The hook runs on the thread that handles the item (for updaters, the store's queue), so it
    /// must be quick.
    public init(hook: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.hook = hook
    }

    /// Runs `body`, traced as the handling of `item` when there is a logger; with none, it costs
    /// one nil check (the store's hot path goes through here).
    @inline(__always)
    static func trace<Result>(_ logger: SignpostLogger?, _ item: any Dispatchable, kind: Kind, _ body: () -> Result) -> Result {
        guard let logger else { return body() }
        let interval = logger.begin(item, kind: kind)
        defer { logger.end(interval) }
        return body()
    }

    func begin(_ item: any Dispatchable, kind: Kind) -> Interval {
        let name = typeName(of: item)
        let id = nextID.withLock { id -> UInt64 in
            id += 1
            return id
        }
        hook(Event(name: name, kind: kind, phase: .begin, id: id))
        #if canImport(os)
        let state = signposter.beginInterval("Dispatch", id: signposter.makeSignpostID(), "\(kind.rawValue, privacy: .public) \(name, privacy: .public)")
        return Interval(name: name, kind: kind, id: id, start: .now, signpostState: state)
        #else
        return Interval(name: name, kind: kind, id: id, start: .now)
        #endif
    }

    func end(_ interval: Interval) {
        let duration = ContinuousClock.now - interval.start
        #if canImport(os)
        signposter.endInterval("Dispatch", interval.signpostState)
        #endif
        hook(Event(name: interval.name, kind: interval.kind, phase: .end(duration: duration), id: interval.id))
    }
}
