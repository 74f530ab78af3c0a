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
        /// The logger that began it, which ends it.
        let logger: SignpostLogger
        let name: String
        let kind: Kind
        let id: UInt64
        let start: ContinuousClock.Instant
        #if canImport(os)
        let signpostState: OSSignpostIntervalState
        #endif
    }

    /// What receives the events (see ``setHook(_:)``).
    private let hook: Locked<@Sendable (Event) -> Void>
    // Guarded by its own lock.
    private let nextID = Locked<UInt64>(0)
    #if canImport(os)
    private let signposter = OSSignposter(subsystem: "Katana", category: "Dispatch")
    #endif

    // Guarded by its own lock.
    private let tracing: Locked<Bool>

    /// Katana 6's switch, `SignpostLogger.isEnabled = true`: while it is on, every store that was
    /// given no logger of its own (``Store/Configuration/signpostLogger``) traces through
    /// ``shared``. Off by default. Stores read it on every item, so it may be turned on and off
    /// while they run.
    public static var isEnabled: Bool {
        get { sharedSwitch.load() != 0 }
        set { sharedSwitch.store(newValue ? 1 : 0) }
    }

    /// The logger stores use while ``isEnabled`` is on and they were given none. On Apple
    /// platforms it emits signposts for Instruments; its hook does nothing until ``setHook(_:)``.
    public static let shared = SignpostLogger()

    /// Whether this logger traces: while false it emits no signposts and does not call its hook.
    public var isTracing: Bool {
        get { tracing.withLock { $0 } }
        set { tracing.withLock { $0 = newValue } }
    }

    /// Creates a logger that calls `hook` with every begin and end event (while `isTracing`).
    ///
    /// The hook runs on the thread that handles the item (for updaters, the store's queue), so it
    /// must be quick.
    public init(isTracing: Bool = true, hook: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.hook = Locked(hook)
        self.tracing = Locked(isTracing)
    }

    /// The switch behind ``isEnabled``, read on every item: an atomic word, not a lock.
    private static let sharedSwitch = AtomicWord(0)

    /// The logger a store traces with: the one it was given, or ``shared`` while ``isEnabled``.
    @inline(__always)
    static func active(_ configured: SignpostLogger?) -> SignpostLogger? {
        if let configured {
            return configured
        }
        return isEnabled ? shared : nil
    }

    /// Replaces the hook: for ``shared``, whose hook does nothing until a program gives it one (a
    /// Linux service that keeps Katana 6's `SignpostLogger.isEnabled = true` feeds its tracing here).
    public func setHook(_ newHook: @escaping @Sendable (Event) -> Void) {
        hook.withLock { $0 = newHook }
    }

    /// Runs `body`, traced as the handling of `item` when there is a logger (the store's own, or
    /// ``shared`` while ``isEnabled``); with none, it costs a nil check and an atomic read (the
    /// store's hot path goes through here).
    @inline(__always)
    static func trace<Result>(_ configured: SignpostLogger?, _ item: any Dispatchable, kind: Kind, _ body: () -> Result) -> Result {
        guard let logger = active(configured), let interval = logger.begin(item, kind: kind) else { return body() }
        defer { logger.end(interval) }
        return body()
    }

    /// Starts tracing `item`, or returns nil when the logger is off.
    func begin(_ item: any Dispatchable, kind: Kind) -> Interval? {
        guard isTracing else { return nil }
        let name = typeName(of: item)
        let id = nextID.withLock { id -> UInt64 in
            id += 1
            return id
        }
        let hook = hook.withLock { $0 }
        hook(Event(name: name, kind: kind, phase: .begin, id: id))
        #if canImport(os)
        let state = signposter.beginInterval("Dispatch", id: signposter.makeSignpostID(), "\(kind.rawValue, privacy: .public) \(name, privacy: .public)")
        return Interval(logger: self, name: name, kind: kind, id: id, start: .now, signpostState: state)
        #else
        return Interval(logger: self, name: name, kind: kind, id: id, start: .now)
        #endif
    }

    func end(_ interval: Interval) {
        let duration = ContinuousClock.now - interval.start
        #if canImport(os)
        signposter.endInterval("Dispatch", interval.signpostState)
        #endif
        let hook = hook.withLock { $0 }
        hook(Event(name: interval.name, kind: interval.kind, phase: .end(duration: duration), id: interval.id))
    }
}
