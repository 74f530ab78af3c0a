/// How a side effect ended: what an interceptor learns, later than the item itself, through
/// ``AnySideEffectContext/observeSideEffectEnds(_:)``.
///
/// An interceptor sees a side effect when the store takes it, before its body runs; for an
/// ``AsyncSideEffect`` the body is a task that ends long after the interceptors have returned.
/// Its end says how it went and how long its body ran, for a recording, a metric or a span.
///
/// ```swift
/// struct SlowSideEffects: Interceptor {
///     mutating func start(in context: any AnySideEffectContext) {
///         context.observeSideEffectEnds { end in
///             if end.duration > .seconds(1) { print("\(end.item) took \(end.duration): \(end.outcome)") }
///         }
///     }
///     func intercept(_ item: any Dispatchable, next: InterceptorNext) throws { try next(item) }
/// }
/// ```
public struct SideEffectEnd: Sendable {
    /// How a side effect's run went.
    public enum Outcome: Sendable, CustomStringConvertible {
        /// Its body returned.
        case succeeded
        /// Its body threw this error.
        case failed(any Error)
        /// It was cancelled, while its body ran or before it began: its promise was rejected with
        /// a cancellation error, whatever the body did afterwards.
        case cancelled(by: Canceller)

        /// `succeeded`, `failed: <error>` or `cancelled by <canceller>`.
        public var description: String {
            switch self {
            case .succeeded: "succeeded"
            case .failed(let error): "failed: \(error)"
            case .cancelled(let canceller): "cancelled by \(canceller.description)"
            }
        }
    }

    /// What cancelled a side effect.
    public enum Canceller: String, Sendable, Hashable, CustomStringConvertible {
        /// Its promise (`Promise.cancel()`).
        case promise
        /// `cancelSideEffects(id:)` with its id.
        case id
        /// A newer side effect with the same id that cancels those in flight ("latest wins").
        case latestWins
        /// A shutdown that cancels what is left.
        case shutdown

        /// `its promise`, `its id`, `latest wins` or `a shutdown`.
        public var description: String {
            switch self {
            case .promise: "its promise"
            case .id: "its id"
            case .latestWins: "latest wins"
            case .shutdown: "a shutdown"
            }
        }
    }

    /// The side effect (the one the interceptors passed on, when they replaced it).
    public let item: any Dispatchable
    /// Its place in dispatch order: the ``InterceptedItem/sequence`` its interceptors saw.
    public let sequence: UInt64
    /// How it went.
    public let outcome: Outcome
    /// Whether its body began: false when it was cancelled before.
    public let began: Bool
    /// How long its body ran, up to now (an async one's whole task, suspensions included); zero
    /// when it never began.
    public let duration: Duration

    /// An end, for tests of interceptors run outside a store.
    public init(item: any Dispatchable, sequence: UInt64, outcome: Outcome, began: Bool, duration: Duration) {
        self.item = item
        self.sequence = sequence
        self.outcome = outcome
        self.began = began
        self.duration = duration
    }
}
