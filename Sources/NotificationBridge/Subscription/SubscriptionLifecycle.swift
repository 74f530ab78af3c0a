/// The life of one subscription — starting, listening, posting, over — as a value with no lock and
/// no threads.
///
/// ``NotificationBridgeSubscription`` keeps one and calls it under ``PostingCoordinator``'s lock.
/// Each event method changes the value and returns what the caller must do once it has let go of
/// the lock: release what the subscription listened with, tell the bridge to forget it, wait for
/// posts running on other threads, or wake the cancellers waiting for a post.
///
/// `Thread` tells threads apart (who runs a post, who cancels); `Resources` is what a started
/// subscription listens with (a timer source, signal listener tokens). Resources handed over by
/// ``started(with:)`` are handed back exactly once, to be released.
///
/// What a cancel waits for follows from the phases: posts that began before the cancel and run on
/// other threads. A post running on the cancelling thread is the caller's own (the cancel comes
/// from one of its observers) and is not waited for; whether a post elsewhere may be waited for
/// without a deadlock is ``CancelWaitGraph``'s decision.
struct SubscriptionLifecycle<Thread: Equatable, Resources> {
    /// Where the subscription is in its life.
    enum Phase {
        /// Registered with its bridge while `start()` acquires its resources. Posts may already run
        /// (a signal can arrive before the rest of a list is registered); `posting` lists the threads
        /// running one.
        case starting(posting: [Thread])
        /// Listening through `resources`; `posting` lists the threads running a post (at most one
        /// when the bridge's queue is serial).
        case listening(Resources, posting: [Thread])
        /// Cancelled, or a one-shot timer whose post has ended; the posts listed still run to their
        /// end (never empty), and no new post begins.
        case ending(posting: [Thread])
        /// Over: no post runs and none will begin.
        case ended
    }

    /// What ``beginPost(on:)`` asks of the posting thread.
    enum PostDecision: Equatable {
        /// Post now; this is the subscription's `fireCount`-th post (1, 2, 3, …).
        case post(fireCount: Int)
        /// Do not post: the subscription is over, or a one-shot that has already posted.
        case skip
    }

    /// What ``endPost(on:)`` asks of the thread whose post returned.
    enum PostEnd {
        /// Nothing.
        case nothing
        /// The subscription was cancelled while this post ran: wake the cancellers waiting for it.
        case wakeCancellers
        /// A one-shot's post has ended, so the subscription is over: release the resources (if it
        /// had been started) and have the bridge forget it.
        case finished(releasing: Resources?)
    }

    /// What ``cancel(from:)`` asks of the cancelling thread.
    struct Cancellation {
        /// Whether this call ended the subscription; if so, the caller has the bridge forget it.
        /// False when it was over already (cancelling again, or a finished one-shot).
        let cancelledNow: Bool
        /// What the subscription listened with, to release now; nil unless this call ended a
        /// started subscription.
        let releasing: Resources?
        /// The threads running a post of this subscription, other than the caller: the caller waits
        /// for those posts to end (unless ``CancelWaitGraph`` finds that waiting would close a cycle).
        let postsToAwait: [Thread]
    }

    /// What ``started(with:)`` asks of the starting thread.
    enum StartOutcome {
        /// The subscription keeps the resources until it ends.
        case keep
        /// The subscription ended while it was starting: release the resources now.
        case release(Resources)
    }

    /// Where the subscription is.
    private(set) var phase: Phase = .starting(posting: [])

    /// How many posts have begun.
    private(set) var fireCount = 0

    /// Whether the subscription ends after its first post (a one-shot timer).
    let postsOnce: Bool

    /// A subscription about to start; `postsOnce` for a one-shot timer.
    init(postsOnce: Bool) {
        self.postsOnce = postsOnce
    }

    /// Whether posts may still begin: true until the subscription is cancelled or, for a one-shot,
    /// until its post has ended.
    var isActive: Bool {
        switch phase {
        case .starting, .listening: return true
        case .ending, .ended: return false
        }
    }

    /// Whether a post of this subscription runs on `thread` now.
    func isPosting(on thread: Thread) -> Bool {
        switch phase {
        case .starting(let posting), .listening(_, let posting), .ending(let posting):
            return posting.contains(thread)
        case .ended:
            return false
        }
    }

    // MARK: - Events

    /// `start()` has acquired `resources`.
    mutating func started(with resources: Resources) -> StartOutcome {
        switch phase {
        case .starting(let posting):
            phase = .listening(resources, posting: posting)
            return .keep
        case .listening:
            // Resources are handed over once; a second set would never be released otherwise.
            return .release(resources)
        case .ending, .ended:
            // Cancelled (or a one-shot that already posted) before `start()` finished.
            return .release(resources)
        }
    }

    /// An event arrived on `thread` (a signal, a timer fire): may it post?
    mutating func beginPost(on thread: Thread) -> PostDecision {
        switch phase {
        case .starting(var posting):
            guard mayPostAgain else { return .skip }
            posting.append(thread)
            phase = .starting(posting: posting)
        case .listening(let resources, var posting):
            guard mayPostAgain else { return .skip }
            posting.append(thread)
            phase = .listening(resources, posting: posting)
        case .ending, .ended:
            // No post begins once the subscription is over.
            return .skip
        }
        fireCount += 1
        return .post(fireCount: fireCount)
    }

    /// The post that ``beginPost(on:)`` allowed on `thread` has returned from every observer.
    mutating func endPost(on thread: Thread) -> PostEnd {
        switch phase {
        case .starting(var posting):
            Self.remove(thread, from: &posting)
            guard postsOnce else {
                phase = .starting(posting: posting)
                return .nothing
            }
            // A one-shot that fired before `start()` handed its timer over: `started(with:)` will
            // hand the timer back.
            phase = Self.over(stillPosting: posting)
            return .finished(releasing: nil)
        case .listening(let resources, var posting):
            Self.remove(thread, from: &posting)
            guard postsOnce else {
                phase = .listening(resources, posting: posting)
                return .nothing
            }
            phase = Self.over(stillPosting: posting)
            return .finished(releasing: resources)
        case .ending(var posting):
            // Cancelled while this post ran: cancellers on other threads may be waiting for it.
            Self.remove(thread, from: &posting)
            phase = Self.over(stillPosting: posting)
            return .wakeCancellers
        case .ended:
            // Every post that began is listed until it ends, so none ends here.
            return .nothing
        }
    }

    /// `caller` cancels the subscription.
    mutating func cancel(from caller: Thread) -> Cancellation {
        switch phase {
        case .starting(let posting):
            phase = Self.over(stillPosting: posting)
            return Cancellation(cancelledNow: true, releasing: nil, postsToAwait: posting.filter { $0 != caller })
        case .listening(let resources, let posting):
            phase = Self.over(stillPosting: posting)
            return Cancellation(
                cancelledNow: true, releasing: resources, postsToAwait: posting.filter { $0 != caller })
        case .ending(let posting):
            // Over already, but a post that began before is still running: this cancel, too, returns
            // only after it (unless it runs on the caller's thread).
            return Cancellation(cancelledNow: false, releasing: nil, postsToAwait: posting.filter { $0 != caller })
        case .ended:
            return Cancellation(cancelledNow: false, releasing: nil, postsToAwait: [])
        }
    }

    // MARK: - Helpers

    private var mayPostAgain: Bool {
        !postsOnce || fireCount == 0
    }

    /// The phase of a subscription that is over while the posts listed still run.
    private static func over(stillPosting posting: [Thread]) -> Phase {
        posting.isEmpty ? .ended : .ending(posting: posting)
    }

    private static func remove(_ thread: Thread, from posting: inout [Thread]) {
        if let index = posting.firstIndex(of: thread) {
            posting.remove(at: index)
        }
    }
}

extension SubscriptionLifecycle.Phase: Equatable where Resources: Equatable {}
extension SubscriptionLifecycle.PostEnd: Equatable where Resources: Equatable {}
extension SubscriptionLifecycle.Cancellation: Equatable where Resources: Equatable {}
extension SubscriptionLifecycle.StartOutcome: Equatable where Resources: Equatable {}
