import Foundation

/// The lock behind every subscription's ``SubscriptionLifecycle``, and the process-wide
/// ``CancelWaitGraph`` of cancels waiting for posts.
///
/// One lock for all bridges, because deciding whether a cancel may wait has to see, at one moment,
/// the subscription's posts in progress and every other thread's wait, whichever bridges they
/// belong to. It is only ever held for a few reads and writes of those values: never while a
/// notification is posted, a dispatch source is cancelled or the signal registry is called.
///
/// Lock order: `condition` is a leaf. No other lock (a bridge's, the signal registry's) is ever
/// taken while it is held, and it is never taken while one of those is held.
// @unchecked Sendable: `waits`, and every subscription's `lifecycle`, are only touched while holding
// `condition` (an NSCondition is a lock).
final class PostingCoordinator: @unchecked Sendable {
    /// The coordinator every subscription uses.
    static let shared = PostingCoordinator()

    /// The lock, and the condition a cancel waits on for a post to end. Lock order: a leaf (see the
    /// type's documentation).
    private let condition = NSCondition()

    // guarded by `condition`
    private var waits = CancelWaitGraph<PostingThread, ObjectIdentifier>()

    /// Runs `body` (which reads or changes a subscription's life-cycle) with the lock held.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Blocks `caller` until `subscription`'s post on `thread` has ended, as reported by
    /// `isStillPosting` (read under the lock), unless waiting would close a circle of waits (see
    /// ``CancelWaitGraph``). Returns whether it waited. Called without the lock held.
    @discardableResult
    func awaitPostEnd(
        of subscription: ObjectIdentifier,
        on thread: PostingThread,
        by caller: PostingThread,
        isStillPosting: () -> Bool
    ) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard isStillPosting() else { return false }
        let post = CancelWaitGraph<PostingThread, ObjectIdentifier>.Post(subscription: subscription, thread: thread)
        guard waits.beginWait(by: caller, for: post) else { return false }
        while isStillPosting() {
            condition.wait()
        }
        waits.endWait(by: caller)
        return true
    }

    /// A post of `subscription` on `thread` that a cancel may wait for has ended: drops the waits
    /// for it and wakes the waiting cancellers. Called with the lock held (inside ``withLock(_:)``),
    /// in the same critical section as the life-cycle change that ended the post.
    func postEndedWhileLocked(of subscription: ObjectIdentifier, on thread: PostingThread) {
        waits.postEnded(.init(subscription: subscription, thread: thread))
        condition.broadcast()
    }
}
