/// Who is blocked in `cancel()` waiting for which post, across every bridge of the process, so that
/// no set of cancels ever waits in a circle.
///
/// A value with no lock and no threads; ``PostingCoordinator`` owns the process's one and calls it
/// under its lock.
///
/// A cancel that finds its subscription posting on another thread waits for that post to end, so
/// that nothing posts after it returns. The post may itself be blocked: its observer may be in a
/// cancel of its own, waiting for a post on a third thread, and so on. If that chain leads back to
/// the thread that wants to wait, every thread in it would wait forever (two bridges whose observers
/// cancel each other's subscriptions at the same moment form the shortest such chain). The graph
/// records one edge per waiting thread — waiter → the post it waits for — and refuses the edge that
/// would close a circle; that cancel returns without waiting. Since no circle is ever recorded, every
/// wait that is recorded ends.
struct CancelWaitGraph<Thread: Hashable, Subscription: Hashable> {
    /// One post in progress: `subscription`'s, running on `thread`.
    struct Post: Hashable {
        let subscription: Subscription
        let thread: Thread
    }

    /// For each thread blocked in a cancel, the post it waits for.
    private(set) var waits: [Thread: Post] = [:]

    /// `caller` wants to block until `post` ends. Returns true, and records the wait, when that
    /// cannot close a circle; returns false, recording nothing, when the thread running `post` is
    /// `caller` itself or waits — directly or through other waiting threads — for a post on `caller`.
    mutating func beginWait(by caller: Thread, for post: Post) -> Bool {
        var thread = post.thread
        // The recorded edges form chains without circles, so the walk ends within `waits.count` steps.
        for _ in 0...waits.count {
            if thread == caller { return false }
            guard let next = waits[thread] else { break }
            thread = next.thread
        }
        waits[caller] = post
        return true
    }

    /// `caller` stopped waiting (the post ended, or it was told to stop).
    mutating func endWait(by caller: Thread) {
        waits[caller] = nil
    }

    /// `post` has ended: the threads that waited for it wait no more, even before they get to run
    /// again (until then they must not count as blocked in a later check).
    mutating func postEnded(_ post: Post) {
        waits = waits.filter { $0.value != post }
    }
}
