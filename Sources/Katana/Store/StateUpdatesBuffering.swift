/// How many state changes a `stateUpdates` sequence keeps for a consumer that has not taken them yet.
///
/// Pick ``everyChange`` when the consumer must see each change (an audit log, a test); it is the
/// default, and memory grows while the consumer is behind. Pick ``latestOnly`` when only the
/// present matters (a UI showing the current value, a health endpoint): a slow consumer skips to
/// the most recent change. Pick ``newest(_:)`` for a bounded backlog (a consumer that batches): the
/// oldest changes are dropped once `n` are waiting.
public enum StateUpdatesBuffering: Sendable, Equatable {
    /// Every change is kept until the consumer takes it.
    case everyChange
    /// Only the most recent change waits; an older one not yet taken is dropped.
    case latestOnly
    /// At most `n` changes wait; when another comes, the oldest is dropped. Below 1 counts as 1.
    case newest(Int)

    /// The matching policy of `AsyncStream`.
    func policy<Element>(for _: Element.Type) -> AsyncStream<Element>.Continuation.BufferingPolicy {
        switch self {
        case .everyChange:
            return .unbounded
        case .latestOnly:
            return .bufferingNewest(1)
        case .newest(let count):
            return .bufferingNewest(max(1, count))
        }
    }
}
