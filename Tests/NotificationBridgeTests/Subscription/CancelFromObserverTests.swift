import Dispatch
import Foundation
import Testing

@testable import NotificationBridge

/// One round of two bridges whose observers cancel each other's subscription: both observers
/// first wait until both posts are in progress, so the two cancels always overlap.
// @unchecked Sendable: every mutable property is only touched while holding `lock`.
private final class CrossCancelRound: @unchecked Sendable {
    private let lock = NSLock()
    // guarded by `lock`: the two subscriptions, once the test has created them.
    private var subscriptions: [NotificationBridgeSubscription?] = [nil, nil]
    // guarded by `lock`: whether side i's observer has started handling a post.
    private var entered = [false, false]
    // guarded by `lock`: whether side i's observer has called cancel.
    private var cancelling = [false, false]
    // guarded by `lock`: whether side i's observer has returned from its first post.
    private var finished = [false, false]
    // guarded by `lock`: whether side i's cancel returned only after the other side's post ended.
    private var waitedForTheOther: [Bool?] = [nil, nil]
    // guarded by `lock`: problems seen on a posting thread.
    private var problems: [String] = []

    let bridges: [NotificationBridge]
    let useCancelAll: Bool

    init(bridges: [NotificationBridge], useCancelAll: Bool) {
        self.bridges = bridges
        self.useCancelAll = useCancelAll
    }

    func store(_ subscription: NotificationBridgeSubscription, side: Int) {
        lock.withLock { subscriptions[side] = subscription }
    }

    /// What side `side`'s observer does with its first post; later posts do nothing.
    func handlePost(side: Int) {
        let other = 1 - side
        let first: Bool = lock.withLock {
            guard !entered[side] else { return false }
            entered[side] = true
            return true
        }
        guard first else { return }
        let bothPosting = spinUntil {
            lock.withLock { entered[other] && subscriptions[other] != nil }
        }
        guard bothPosting, let target = lock.withLock({ subscriptions[other] }) else {
            lock.withLock { problems.append("side \(side): the other post never started") }
            return
        }
        lock.withLock { cancelling[side] = true }
        if useCancelAll {
            bridges[other].cancelAll()
        } else {
            target.cancel()
        }
        lock.withLock { waitedForTheOther[side] = finished[other] }
        // Stay in the post until the other side has called cancel too, so that a cancel that
        // wrongly returned without waiting is seen returning before the other post ended.
        if !spinUntil({ lock.withLock { cancelling[other] } }) {
            lock.withLock { problems.append("side \(side): the other side never cancelled") }
        }
        lock.withLock { finished[side] = true }
    }

    /// Whether both observers have returned from their first post.
    var isOver: Bool {
        lock.withLock { finished == [true, true] || !problems.isEmpty }
    }

    var outcome: (waited: [Bool?], problems: [String]) {
        lock.withLock { (waitedForTheOther, problems) }
    }
}

/// What `cancel()` waits for when it is called from an observer, and `isActive` during a post.
struct CancelFromObserverTests {
    /// Two bridges, each posting from its own queue every millisecond, whose observers cancel
    /// each other's subscription while both posts are in progress. Each cancel used to wait for
    /// the other's post while its own post waited for it: a deadlock on the first round.
    @Test
    func bridgesWhoseObserversCancelEachOther_finish1000Rounds() async throws {
        let centers = [NotificationCenter(), NotificationCenter()]
        let bridges = centers.map { NotificationBridge(center: $0) }
        var roundsWhereExactlyOneWaited = 0

        for round in 0..<1_000 {
            let state = CrossCancelRound(bridges: bridges, useCancelAll: round.isMultiple(of: 2))
            let names = (0..<2).map { Notification.Name("CancelFromObserverTests.cross.\(round).\($0)") }
            let observations = (0..<2).map { side in
                centers[side].addObserver(forName: names[side], object: nil, queue: nil) { _ in
                    state.handlePost(side: side)
                }
            }
            for side in 0..<2 {
                state.store(try bridges[side].post(names[side], every: .milliseconds(1)), side: side)
            }

            let over = await waitUntil(timeout: .seconds(60)) { state.isOver }
            #expect(over, "round \(round): the observers' cancels did not return (deadlock)")
            guard over else { return }  // the posting threads are stuck; do not touch the bridges
            for side in 0..<2 {
                centers[side].removeObserver(observations[side])
            }
            let outcome = state.outcome
            #expect(outcome.problems.isEmpty, "round \(round): \(outcome.problems)")
            // The first cancel waits for the other post to end; only the one that would close the
            // circle returns without waiting (while the first is still blocked in its post).
            if outcome.waited.compactMap({ $0 }).filter({ $0 }).count == 1 {
                roundsWhereExactlyOneWaited += 1
            }
            #expect(bridges.allSatisfy { $0.activeSubscriptions.isEmpty }, "round \(round)")
        }
        #expect(roundsWhereExactlyOneWaited == 1_000)
    }

    /// `isActive` answers while an observer of the subscription's post is still running.
    @Test
    func isActiveAnswersWhileAPostIsInProgress() async throws {
        let center = NotificationCenter()
        let bridge = NotificationBridge(center: center)
        let name = Notification.Name("CancelFromObserverTests.isActive")
        let entered = Guarded(false)
        let readBeforeThePostEnded = Guarded<Bool?>(nil)
        let read = DispatchSemaphore(value: 0)
        let observation = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            guard entered.mutate({ wasEntered in defer { wasEntered = true }; return !wasEntered }) else { return }
            // Bounded, and long: the test task that signals may wait a while for a thread under load.
            readBeforeThePostEnded.set(read.wait(timeout: .now() + .seconds(240)) == .success)
        }
        defer { center.removeObserver(observation) }
        let subscription = try bridge.post(name, every: .seconds(60), firstFireAfter: .zero)
        defer { subscription.cancel() }

        #expect(await waitUntil { entered.get() })
        let answer = Guarded<Bool?>(nil)
        onOwnThread {
            answer.set(subscription.isActive)
            read.signal()
        }
        #expect(await waitUntil(timeout: .seconds(300)) { readBeforeThePostEnded.get() != nil })
        #expect(readBeforeThePostEnded.get() == true, "isActive waited for the post to end")
        #expect(answer.get() == true)
    }

    /// A cancel from a thread that is not posting returns only after the post in progress ended.
    @Test
    func cancelFromAnotherThreadWaitsForThePostInProgress() async throws {
        let center = NotificationCenter()
        let bridge = NotificationBridge(center: center)
        let name = Notification.Name("CancelFromObserverTests.otherThread")
        let entered = Guarded(false)
        let postFinished = Guarded(false)
        let release = DispatchSemaphore(value: 0)
        let observation = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            guard entered.mutate({ wasEntered in defer { wasEntered = true }; return !wasEntered }) else { return }
            _ = release.wait(timeout: .now() + .seconds(60))
            postFinished.set(true)
        }
        defer { center.removeObserver(observation) }
        let subscription = try bridge.post(name, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { entered.get() })

        let cancelReturnedAfterThePost = Guarded<Bool?>(nil)
        onOwnThread {
            subscription.cancel()
            cancelReturnedAfterThePost.set(postFinished.get())
        }
        #expect(await waitUntil { !subscription.isActive })
        release.signal()
        #expect(await waitUntil(timeout: .seconds(120)) { cancelReturnedAfterThePost.get() != nil })
        #expect(cancelReturnedAfterThePost.get() == true)
    }

    /// A cancel from an observer of another bridge waits for the post in progress too, as long as
    /// that post is not itself waiting for the caller.
    @Test
    func cancelFromAnotherBridgesObserverWaitsForThePostInProgress() async throws {
        let center = NotificationCenter()
        let slowBridge = NotificationBridge(center: center)
        let cancellingBridge = NotificationBridge(center: center)
        let slowName = Notification.Name("CancelFromObserverTests.slow")
        let cancellingName = Notification.Name("CancelFromObserverTests.cancelling")
        let entered = Guarded(false)
        let slowPostFinished = Guarded(false)
        let release = DispatchSemaphore(value: 0)
        let slowObservation = center.addObserver(forName: slowName, object: nil, queue: nil) { _ in
            guard entered.mutate({ wasEntered in defer { wasEntered = true }; return !wasEntered }) else { return }
            _ = release.wait(timeout: .now() + .seconds(60))
            slowPostFinished.set(true)
        }
        defer { center.removeObserver(slowObservation) }
        let slow = try slowBridge.post(slowName, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { entered.get() })

        let cancelReturnedAfterThePost = Guarded<Bool?>(nil)
        let cancellingObservation = center.addObserver(forName: cancellingName, object: nil, queue: nil) { _ in
            slow.cancel()
            cancelReturnedAfterThePost.set(slowPostFinished.get())
        }
        defer { center.removeObserver(cancellingObservation) }
        try cancellingBridge.post(cancellingName, after: .zero)

        #expect(await waitUntil { !slow.isActive })
        release.signal()
        #expect(await waitUntil(timeout: .seconds(120)) { cancelReturnedAfterThePost.get() != nil })
        #expect(cancelReturnedAfterThePost.get() == true)
    }

    /// A cancel from an observer of the subscription's own post returns at once (waiting for the
    /// post it is part of would never end): that post still reaches every observer, and no later
    /// post begins. (NotificationCenter does not promise an order among observers.)
    @Test
    func cancelFromItsOwnObserverReturnsAtOnce_everyObserverStillGetsThatPostAndNoLaterOne() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        let name = Notification.Name("CancelFromObserverTests.own")
        let subscription = Guarded<NotificationBridgeSubscription?>(nil)
        let cancelReturned = Guarded(0)
        let otherObserverPosts = Guarded(0)
        let cancelling = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            guard spinUntil({ subscription.get() != nil }), let own = subscription.get() else { return }
            own.cancel()
            cancelReturned.mutate { $0 += 1 }
        }
        defer { center.removeObserver(cancelling) }
        let other = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            otherObserverPosts.mutate { $0 += 1 }
        }
        defer { center.removeObserver(other) }
        subscription.set(try bridge.post(name, every: .milliseconds(1), firstFireAfter: .zero))

        #expect(await waitUntil { cancelReturned.get() == 1 && otherObserverPosts.get() == 1 })
        let witness = try bridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { recorder.count(.witness) >= 10 })
        witness.cancel()
        #expect(recorder.count(name) == 1)
        #expect(cancelReturned.get() == 1)
        #expect(otherObserverPosts.get() == 1)
    }
}
