import Testing

@testable import NotificationBridge

/// The subscription life-cycle as a value: every phase, every event, no threads. Threads are
/// numbers, resources are names.
struct SubscriptionLifecycleTests {
    typealias Lifecycle = SubscriptionLifecycle<Int, String>

    /// A lifecycle brought to `.listening("timer", posting: posting)`.
    private func listening(postsOnce: Bool = false, posting: [Int] = []) -> Lifecycle {
        var lifecycle = Lifecycle(postsOnce: postsOnce)
        let start = lifecycle.started(with: "timer")
        #expect(start == .keep)
        for thread in posting {
            let begin = lifecycle.beginPost(on: thread)
            #expect(begin != .skip)
        }
        return lifecycle
    }

    /// A lifecycle cancelled by thread 1 before it started, while thread 2 posts: ending.
    private func cancelledWhileStartingAndPosting() -> Lifecycle {
        var lifecycle = Lifecycle(postsOnce: false)
        _ = lifecycle.beginPost(on: 2)
        let cancellation = lifecycle.cancel(from: 1)
        #expect(cancellation == .init(cancelledNow: true, releasing: nil, postsToAwait: [2]))
        #expect(lifecycle.phase == .ending(posting: [2]))
        return lifecycle
    }

    // MARK: starting

    @Test
    func startsInStartingActiveAndNotPosting() {
        let lifecycle = Lifecycle(postsOnce: false)
        #expect(lifecycle.phase == .starting(posting: []))
        #expect(lifecycle.isActive)
        #expect(!lifecycle.isPosting(on: 1))
        #expect(lifecycle.fireCount == 0)
    }

    @Test
    func starting_started_keepsTheResourcesAndListens() {
        var lifecycle = Lifecycle(postsOnce: false)
        let start = lifecycle.started(with: "timer")
        #expect(start == .keep)
        #expect(lifecycle.phase == .listening("timer", posting: []))
        #expect(lifecycle.isActive)
    }

    @Test
    func starting_beginPost_postsAndKeepsAPostThatBeganBeforeStartFinished() {
        var lifecycle = Lifecycle(postsOnce: false)
        let begin = lifecycle.beginPost(on: 1)
        #expect(begin == .post(fireCount: 1))
        #expect(lifecycle.phase == .starting(posting: [1]))
        #expect(lifecycle.isPosting(on: 1))
        let start = lifecycle.started(with: "signals")
        #expect(start == .keep)
        #expect(lifecycle.phase == .listening("signals", posting: [1]))
    }

    @Test
    func starting_endPost_ofARepeatingSubscriptionChangesNothingElse() {
        var lifecycle = Lifecycle(postsOnce: false)
        _ = lifecycle.beginPost(on: 1)
        let end = lifecycle.endPost(on: 1)
        #expect(end == .nothing)
        #expect(lifecycle.phase == .starting(posting: []))
        #expect(lifecycle.isActive)
    }

    @Test
    func starting_endPost_ofAOneShotFinishesItAndItsResourcesComeBackLater() {
        var lifecycle = Lifecycle(postsOnce: true)
        let begin = lifecycle.beginPost(on: 1)
        #expect(begin == .post(fireCount: 1))
        let begin2 = lifecycle.beginPost(on: 2)
        #expect(begin2 == .skip)
        let end = lifecycle.endPost(on: 1)
        #expect(end == .finished(releasing: nil))
        #expect(lifecycle.phase == .ended)
        #expect(!lifecycle.isActive)
        let start = lifecycle.started(with: "timer")
        #expect(start == .release("timer"))
        #expect(lifecycle.phase == .ended)
    }

    @Test
    func starting_cancel_endsAtOnceAndTheResourcesComeBackWhenStartFinishes() {
        var lifecycle = Lifecycle(postsOnce: false)
        let cancellation = lifecycle.cancel(from: 1)
        #expect(cancellation == .init(cancelledNow: true, releasing: nil, postsToAwait: []))
        #expect(lifecycle.phase == .ended)
        #expect(!lifecycle.isActive)
        let start = lifecycle.started(with: "signals")
        #expect(start == .release("signals"))
        #expect(lifecycle.phase == .ended)
    }

    /// Cancelled while a post runs elsewhere, it ends once that post has; the resources its start
    /// brings meanwhile are handed back.
    @Test(arguments: ["signals", "timer"])
    func starting_cancel_whileAPostRunsElsewhere_awaitsThatPost_andStartHandsTheResourcesBack(resource: String) {
        var lifecycle = cancelledWhileStartingAndPosting()
        let start = lifecycle.started(with: resource)
        #expect(start == .release(resource))
        #expect(lifecycle.phase == .ending(posting: [2]))
    }

    // MARK: listening

    @Test
    func listening_startedAgain_handsTheSecondResourcesBack() {
        var lifecycle = listening()
        let start = lifecycle.started(with: "other")
        #expect(start == .release("other"))
        #expect(lifecycle.phase == .listening("timer", posting: []))
    }

    @Test
    func listening_beginPost_countsFiresAndRecordsThePostingThread() {
        var lifecycle = listening()
        let begin = lifecycle.beginPost(on: 1)
        #expect(begin == .post(fireCount: 1))
        #expect(lifecycle.phase == .listening("timer", posting: [1]))
        #expect(lifecycle.isPosting(on: 1))
        #expect(!lifecycle.isPosting(on: 2))
        let end = lifecycle.endPost(on: 1)
        #expect(end == .nothing)
        #expect(lifecycle.phase == .listening("timer", posting: []))
        let begin2 = lifecycle.beginPost(on: 2)
        #expect(begin2 == .post(fireCount: 2))
        let end2 = lifecycle.endPost(on: 2)
        #expect(end2 == .nothing)
        let begin3 = lifecycle.beginPost(on: 1)
        #expect(begin3 == .post(fireCount: 3))
        #expect(lifecycle.fireCount == 3)
        #expect(lifecycle.isActive)
    }

    @Test
    func listening_overlappingPostsOnTwoThreads_areBothRecorded() {
        // Only with a concurrent queue, which the bridge advises against, but it must stay sound.
        var lifecycle = listening(posting: [1, 2])
        #expect(lifecycle.phase == .listening("timer", posting: [1, 2]))
        let end = lifecycle.endPost(on: 1)
        #expect(end == .nothing)
        #expect(lifecycle.phase == .listening("timer", posting: [2]))
    }

    @Test
    func listening_oneShot_postsOnceAndFinishesWhenThatPostEnds() {
        var lifecycle = listening(postsOnce: true)
        let begin = lifecycle.beginPost(on: 1)
        #expect(begin == .post(fireCount: 1))
        #expect(lifecycle.isActive, "active until its post has ended")
        let begin2 = lifecycle.beginPost(on: 1)
        #expect(begin2 == .skip)
        let end = lifecycle.endPost(on: 1)
        #expect(end == .finished(releasing: "timer"))
        #expect(lifecycle.phase == .ended)
        #expect(!lifecycle.isActive)
        let begin3 = lifecycle.beginPost(on: 1)
        #expect(begin3 == .skip)
    }

    @Test
    func listening_cancelWhileIdle_releasesAndEnds() {
        var lifecycle = listening()
        let cancellation = lifecycle.cancel(from: 1)
        #expect(cancellation == .init(cancelledNow: true, releasing: "timer", postsToAwait: []))
        #expect(lifecycle.phase == .ended)
        #expect(!lifecycle.isActive)
    }

    @Test
    func listening_cancelFromAnotherThread_releasesAndAwaitsThePostInProgress() {
        var lifecycle = listening(posting: [2])
        let cancellation = lifecycle.cancel(from: 1)
        #expect(cancellation == .init(cancelledNow: true, releasing: "timer", postsToAwait: [2]))
        #expect(lifecycle.phase == .ending(posting: [2]))
        #expect(!lifecycle.isActive)
        #expect(lifecycle.isPosting(on: 2))
    }

    @Test
    func listening_cancelFromThePostingThread_doesNotAwaitItsOwnPost() {
        var lifecycle = listening(posting: [1])
        let cancellation = lifecycle.cancel(from: 1)
        #expect(cancellation == .init(cancelledNow: true, releasing: "timer", postsToAwait: []))
        #expect(lifecycle.phase == .ending(posting: [1]))
    }

    @Test
    func listening_cancelWithPostsOnTheCallerAndElsewhere_awaitsOnlyTheOthers() {
        var lifecycle = listening(posting: [1, 2, 3])
        let cancellation = lifecycle.cancel(from: 2)
        #expect(cancellation.postsToAwait == [1, 3])
        #expect(lifecycle.phase == .ending(posting: [1, 2, 3]))
    }

    // MARK: ending

    @Test
    func ending_beginPost_skips() {
        var lifecycle = listening(posting: [2])
        _ = lifecycle.cancel(from: 1)
        let begin = lifecycle.beginPost(on: 3)
        #expect(begin == .skip)
        let begin2 = lifecycle.beginPost(on: 2)
        #expect(begin2 == .skip)
        #expect(lifecycle.phase == .ending(posting: [2]))
        #expect(lifecycle.fireCount == 1)
    }

    @Test
    func ending_endPost_wakesCancellersAndEndsWithTheLastPost() {
        var lifecycle = listening(posting: [2, 3])
        _ = lifecycle.cancel(from: 1)
        let end = lifecycle.endPost(on: 2)
        #expect(end == .wakeCancellers)
        #expect(lifecycle.phase == .ending(posting: [3]))
        #expect(!lifecycle.isPosting(on: 2))
        let end2 = lifecycle.endPost(on: 3)
        #expect(end2 == .wakeCancellers)
        #expect(lifecycle.phase == .ended)
    }

    @Test
    func ending_oneShotCancelledDuringItsPost_wakesCancellersInsteadOfFinishingAgain() {
        var lifecycle = listening(postsOnce: true, posting: [2])
        let cancellation = lifecycle.cancel(from: 1)
        #expect(cancellation == .init(cancelledNow: true, releasing: "timer", postsToAwait: [2]))
        let end = lifecycle.endPost(on: 2)
        #expect(end == .wakeCancellers)
        #expect(lifecycle.phase == .ended)
    }

    @Test
    func ending_cancelAgain_awaitsTheSamePostsButReleasesNothing() {
        var lifecycle = listening(posting: [2])
        _ = lifecycle.cancel(from: 1)
        let cancellation = lifecycle.cancel(from: 3)
        #expect(cancellation == .init(cancelledNow: false, releasing: nil, postsToAwait: [2]))
        let cancellation2 = lifecycle.cancel(from: 2)
        #expect(cancellation2 == .init(cancelledNow: false, releasing: nil, postsToAwait: []))
        #expect(lifecycle.phase == .ending(posting: [2]))
    }

    // MARK: ended

    @Test
    func ended_everyEventIsInert() {
        var lifecycle = listening()
        _ = lifecycle.cancel(from: 1)
        #expect(lifecycle.phase == .ended)
        let cancellation = lifecycle.cancel(from: 1)
        #expect(cancellation == .init(cancelledNow: false, releasing: nil, postsToAwait: []))
        let begin = lifecycle.beginPost(on: 1)
        #expect(begin == .skip)
        let end = lifecycle.endPost(on: 1)
        #expect(end == .nothing)
        let start = lifecycle.started(with: "late")
        #expect(start == .release("late"))
        #expect(lifecycle.phase == .ended)
        #expect(!lifecycle.isActive)
        #expect(!lifecycle.isPosting(on: 1))
    }
}
