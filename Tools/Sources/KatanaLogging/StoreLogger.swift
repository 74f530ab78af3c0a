import Katana
import KatanaToolsSupport
import Logging

/// An interceptor that writes the store's log through swift-log: one line for every dispatched
/// item, with where it came from, how it went and how long the store took with it.
///
/// The line is `dispatched <item>`, the event ``DispatchableLogger`` prints, and its metadata says
/// the rest (docs/LoggingAndMetrics.md has the table):
///
/// ```swift
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors {
///     StoreLogger(Logger(label: "app.store"), skipping: [Tick.self])
/// })
/// ```
///
/// It logs after `next` returns, so the outcome is known: `handled`, `blocked` (an interceptor after
/// this one did not pass the item on) or `rejected` (one threw; logged at `rejectedLevel`, and the
/// error is rethrown). Put it after the interceptors whose blocking you do not want to see, before
/// those you do. When the logger's level drops both `level` and `rejectedLevel`, an item costs one
/// read of that level and nothing else: no clock, no metadata. When it keeps only `rejectedLevel`
/// (a service logging at `.info`, with the defaults), every item is still timed, so that a
/// rejection's line has its duration, and only rejections make metadata.
///
/// Given the store's dispatch context, it writes each line inside the context the item carries
/// (the request that dispatched it), so that the logger's metadata provider — swift-log's way of
/// adding what task-locals say, such as a tracer's trace and span ids — reads the request's
/// (`traceIDs` is the provider the app's tracer gives; `.serviceContext` is KatanaTracing's):
///
/// ```swift
/// StoreLogger(Logger(label: "app.store", metadataProvider: traceIDs), dispatchContext: .serviceContext)
/// ```
public struct StoreLogger: Interceptor {
    private let logger: Logger
    private let level: Logger.Level
    private let rejectedLevel: Logger.Level
    /// The more severe of the two levels: when the logger drops it, it drops every line.
    private let loudestLevel: Logger.Level
    private let skipped: Set<ObjectIdentifier>
    /// The names and kinds of the types logged so far, shared by the copies of this logger.
    private let types = LoggedTypes()
    /// Puts an item's dispatch context in place while its line is written, when given.
    private let dispatchContext: DispatchContext?

    /// A logger that writes to `logger`: handled and blocked items at `level`, rejected ones at
    /// `rejectedLevel`, and nothing for the types in `skipping` (a timer's tick, say); each line
    /// written inside its item's context when `dispatchContext` (the store's) is given.
    public init(
        _ logger: Logger,
        level: Logger.Level = .debug,
        rejectedLevel: Logger.Level = .warning,
        skipping: [any Dispatchable.Type] = [],
        dispatchContext: DispatchContext? = nil
    ) {
        self.dispatchContext = dispatchContext
        self.logger = logger
        self.level = level
        self.rejectedLevel = rejectedLevel
        loudestLevel = max(level, rejectedLevel)
        skipped = Set(skipping.map { ObjectIdentifier($0) })
    }

    /// Passes `item` on, timing the rest of the chain, then logs it with its outcome; rethrows what
    /// a later interceptor throws.
    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        // The level is read on every item, not once: a handler may change it while the store runs.
        guard loudestLevel >= logger.logLevel, skipped.isEmpty || !skipped.contains(ObjectIdentifier(type(of: item))) else {
            try next(item)
            return
        }
        let intercepted = InterceptedItem.current
        // Read before `next`: what the item carries from where it was dispatched.
        let itemContext = dispatchContext == nil ? nil : InterceptedItem.currentDispatchContext
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try next(item)
        } catch {
            let duration = start.duration(to: clock.now)
            // An error thrown after the item was passed on does not undo its handling: the store
            // counts it as handled, and so does the line (which still carries the error).
            let outcome = ItemOutcome.afterThrow
            write(item, intercepted, outcome, duration, error: error, in: itemContext)
            throw error
        }
        let duration = start.duration(to: clock.now)
        let outcome = ItemOutcome.afterNext
        write(item, intercepted, outcome, duration, error: nil, in: itemContext)
    }

    /// Writes the line for one item, at the level its outcome calls for.
    private func write(
        _ item: any Dispatchable,
        _ intercepted: InterceptedItem?,
        _ outcome: ItemOutcome,
        _ duration: Duration,
        error: (any Error)?,
        in itemContext: (any Sendable)?
    ) {
        let lineLevel = outcome == .rejected ? rejectedLevel : level
        guard lineLevel >= logger.logLevel else { return }
        let known = types.entry(for: item)
        var metadata: Logger.Metadata = [
            MetadataKey.type: .string(known.name),
            MetadataKey.kind: .string(known.kind.rawValue),
            MetadataKey.origin: .string(intercepted?.origin.description ?? DispatchOrigin.outside.description),
            MetadataKey.outcome: .string(outcome.rawValue),
            MetadataKey.duration: .string(secondsWithMicroseconds(duration)),
        ]
        if let intercepted {
            metadata[MetadataKey.sequence] = .string(String(intercepted.sequence))
        }
        if let error {
            metadata[MetadataKey.error] = .string(String(describing: error))
        }
        let message: Logger.Message = "dispatched \(item.debugDescription)"
        if let dispatchContext, let itemContext {
            dispatchContext.restore(itemContext) {
                logger.log(level: lineLevel, message, error: error, metadata: metadata)
            }
        } else {
            logger.log(level: lineLevel, message, error: error, metadata: metadata)
        }
    }
}

extension StoreLogger {
    /// The metadata keys of a ``StoreLogger`` line, for code that reads the log back (a handler
    /// that turns them into fields, a test).
    public enum MetadataKey {
        /// The item's type, fully qualified.
        public static let type = "katana.type"
        /// `updater`, `sideEffect`, `asyncSideEffect` or `other`.
        public static let kind = "katana.kind"
        /// `outside`, `side effect <Type> #<sequence>`, or `store work` with its label in quotes.
        public static let origin = "katana.origin"
        /// The item's place in the store's dispatch order, which a side effect origin refers to.
        public static let sequence = "katana.sequence"
        /// `handled`, `blocked` or `rejected`.
        public static let outcome = "katana.outcome"
        /// Seconds spent in the rest of the chain (the later interceptors and the store's handling).
        public static let duration = "katana.duration"
        /// The error a later interceptor threw.
        public static let error = "katana.error"
    }
}
