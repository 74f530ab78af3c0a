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

    // Guarded by its own lock.
    private let enabled: Locked<Bool>

    /// The logger Katana code reaches as `SignpostLogger.shared`; off until `isEnabled` is set, as
    /// in Katana. It traces a store only when given to it (``Store/Configuration/signpostLogger``).
    public static let shared = SignpostLogger(isEnabled: false)

    /// Whether the logger traces: while false it emits no signposts and does not call its hook.
    public var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }

    /// Creates a logger that calls `hook` with every begin and end event.
    ///
    /// The hook runs on the thread that handles the item (for updaters, the store's queue), so it
    /// must be quick.
    public init(isEnabled: Bool = true, hook: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.hook = hook
        self.enabled = Locked(isEnabled)
    }

    /// Runs `body`, traced as the handling of `item` when there is a logger; with none, it costs
    /// one nil check (the store's hot path goes through here).
    @inline(__always)
    static func trace<Result>(_ logger: SignpostLogger?, _ item: any Dispatchable, kind: Kind, _ body: () -> Result) -> Result {
        guard let logger, let interval = logger.begin(item, kind: kind) else { return body() }
        defer { logger.end(interval) }
        return body()
    }

    /// Starts tracing `item`, or returns nil when the logger is off.
    func begin(_ item: any Dispatchable, kind: Kind) -> Interval? {
        guard isEnabled else { return nil }
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
