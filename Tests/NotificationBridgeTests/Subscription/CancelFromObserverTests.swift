import Dispatch
import Foundation
import KatanaTestSupport
import Testing

@testable import NotificationBridge

/// One round of two bridges whose observers cancel each other's subscription: both observers
/// first wait until both posts are in progress, so the two cancels always overlap.
// @unchecked Sendable: every mutable property is only touched while holding `condition`.
private final class CrossCancelRound: @unchecked Sendable {
    /// Guards the properties below; every change wakes the posting threads waiting on it.
    private let condition = NSCondition()
    // guarded by `condition`: the two subscriptions, once the test has created them.
    private var subscriptions: [NotificationBridgeSubscription?] = [nil, nil]
    // guarded by `condition`: whether side i's observer has started handling a post.
    private var entered = [false, false]
    // guarded by `condition`: whether side i's observer has called cancel.
    private var cancelling = [false, false]
    // guarded by `condition`: whether side i's cancel returned only after the other side's post ended.
    private var waitedForTheOther: [Bool?] = [nil, nil]
    // guarded by `condition`: whether side i's observer has returned from its first post.
    private var finished = [false, false]
    /// "finished" once per side that returned from its first post, and the problems seen on a
    /// posting thread: what the test awaits.
    let events = LockedList<String>()

    let bridges: [NotificationBridge]
    let useCancelAll: Bool

    init(bridges: [NotificationBridge], useCancelAll: Bool) {
        self.bridges = bridges
        self.useCancelAll = useCancelAll
    }

    /// Runs `body` holding the lock, then wakes whoever waits in ``waitUntil(_:)``.
    private func change<R>(_ body: () -> R) -> R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }

    /// Blocks the posting thread (never a test task's) until `holds`, which reads the guarded
    /// properties, is true; woken by every change. False after the default test timeout.
    private func waitUntil(_ holds: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(Double(defaultTestTimeout.components.seconds))
        condition.lock()
        defer { condition.unlock() }
        while !holds() {
            if !condition.wait(until: deadline) { return holds() }
        }
        return true
    }

    func store(_ subscription: NotificationBridgeSubscription, side: Int) {
        change { subscriptions[side] = subscription }
    }

    /// What side `side`'s observer does with its first post; later posts do nothing.
    func handlePost(side: Int) {
        let other = 1 - side
        let first: Bool = change {
            guard !entered[side] else { return false }
            entered[side] = true
            return true
        }
        guard first else { return }
        let bothPosting = waitUntil { entered[other] && subscriptions[other] != nil }
        guard bothPosting, let target = change({ subscriptions[other] }) else {
            events.append("problem: side \(side): the other post never started")
            return
        }
        change { cancelling[side] = true }
        if useCancelAll {
            bridges[other].cancelAll()
        } else {
            target.cancel()
        }
        change { waitedForTheOther[side] = finished[other] }
        // Stay in the post until the other side has called cancel too, so that a cancel that
        // wrongly returned without waiting is seen returning before the other post ended.
        if !waitUntil({ cancelling[other] }) {
            events.append("problem: side \(side): the other side never cancelled")
        }
        change { finished[side] = true }
        events.append("finished")
    }

    /// Suspends until both observers have returned from their first post, or one saw a problem.
    func waitUntilOver() async throws {
        // Longer than the posting threads' own waits, so that a wait of theirs that ran out is
        // reported as what it is, not as a deadlock.
        try await events.waitUntil("both observers to return from their posts", timeout: defaultTestTimeout * 4) { events in
            events.filter { $0 == "finished" }.count == 2 || events.contains { $0.hasPrefix("problem") }
        }
    }

    var outcome: (waited: [Bool?], problems: [String]) {
        (change { waitedForTheOther }, events.all.filter { $0.hasPrefix("problem") })
    }
}

/// An observer of `name` whose first post stays in progress until the test releases it (or
/// `patience` passes: long, since the thread that releases it may wait a while for a core under
/// load): a post in progress, for as long as a test needs one.
// @unchecked Sendable: its properties are constants, of Sendable types but for `observation`,
// which is only used to remove the observer.
private final class HeldPost: @unchecked Sendable {
    /// The name of the notification whose first post is held.
    let name: Notification.Name
    /// One entry once the first post has reached the observer.
    let entered: LockedList<String>
    /// One entry once the first post has ended: whether the test released it in time.
    let ended: LockedList<Bool>
    private let gate: DispatchSemaphore
    private let center: NotificationCenter
    private let observation: any NSObjectProtocol

    init(_ name: Notification.Name, on center: NotificationCenter, patience: Duration = .seconds(240)) {
        let entered = LockedList<String>()
        let ended = LockedList<Bool>()
        let gate = DispatchSemaphore(value: 0)
        let isFirst = LockedValue(true)
        self.name = name
        self.entered = entered
        self.ended = ended
        self.gate = gate
        self.center = center
        observation = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            guard isFirst.withLock({ first in defer { first = false }; return first }) else { return }
            entered.append("entered")
            let released = gate.wait(timeout: .now() + Double(patience.components.seconds)) == .success
            ended.append(released)
        }
    }

    deinit {
        center.removeObserver(observation)
    }

    /// Whether the first post has ended.
    var hasEnded: Bool {
        ended.count > 0
    }

    /// Lets the first post end.
    func release() {
        gate.signal()
    }
}

/// What `cancel()` waits for when it is called from an observer, and `isActive` during a post.
struct CancelFromObserverTests {
    /// A bridge on a center of its own, and a held post on that center, of a name made from `name`.
    private func bridgeWithHeldPost(_ name: String) -> (bridge: NotificationBridge, held: HeldPost) {
        let center = NotificationCenter()
        return (NotificationBridge(center: center), HeldPost(Notification.Name("CancelFromObserverTests.\(name)"), on: center))
    }

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

            do {
                try await state.waitUntilOver()
            } catch {
                Issue.record("round \(round): the observers' cancels did not return (deadlock): \(error)")
                return  // the posting threads are stuck; do not touch the bridges
            }
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
        let (bridge, held) = bridgeWithHeldPost("isActive")
        let subscription = try bridge.post(held.name, every: .seconds(60), firstFireAfter: .zero)
        defer { subscription.cancel() }

        try await held.entered.waitForCount(1)
        let answer = try await onThreadOfItsOwn("isActive, read during the post", timeout: .seconds(300)) {
            let active = subscription.isActive
            held.release()
            return active
        }
        let readBeforeThePostEnded = try await held.ended.waitForCount(1, timeout: .seconds(300))
        #expect(readBeforeThePostEnded == [true], "isActive waited for the post to end")
        #expect(answer == true)
    }

    /// A cancel from a thread that is not posting returns only after the post in progress ended.
    @Test
    func cancelFromAnotherThreadWaitsForThePostInProgress() async throws {
        let (bridge, held) = bridgeWithHeldPost("otherThread")
        let subscription = try bridge.post(held.name, every: .milliseconds(1), firstFireAfter: .zero)
        try await held.entered.waitForCount(1)

        async let cancelReturnedAfterThePost = onThreadOfItsOwn("the cancel", timeout: .seconds(120)) {
            subscription.cancel()
            return held.hasEnded
        }
        // The cancel ends the subscription at once, then waits for the post: nothing signals the
        // first part but the flag.
        try await poll("the subscription to end") { !subscription.isActive }
        held.release()
        #expect(try await cancelReturnedAfterThePost == true)
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
        let held = HeldPost(slowName, on: center)
        let slow = try slowBridge.post(slowName, every: .milliseconds(1), firstFireAfter: .zero)
        try await held.entered.waitForCount(1)

        let cancelReturnedAfterThePost = LockedList<Bool>()
        let cancellingObservation = center.addObserver(forName: cancellingName, object: nil, queue: nil) { _ in
            slow.cancel()
            cancelReturnedAfterThePost.append(held.hasEnded)
        }
        defer { center.removeObserver(cancellingObservation) }
        try cancellingBridge.post(cancellingName, after: .zero)

        try await poll("the slow subscription to end") { !slow.isActive }
        held.release()
        #expect(try await cancelReturnedAfterThePost.waitForCount(1, timeout: .seconds(120)) == [true])
    }

    /// A cancel from an observer of the subscription's own post returns at once (waiting for the
    /// post it is part of would never end): that post still reaches every observer, and no later
    /// post begins. (NotificationCenter does not promise an order among observers.)
    @Test
    func cancelFromItsOwnObserverReturnsAtOnce_everyObserverStillGetsThatPostAndNoLaterOne() async throws {
        let posting = Posting()
        let center = posting.center
        let name = Notification.Name("CancelFromObserverTests.own")
        let subscription = LockedValue<NotificationBridgeSubscription?>(nil)
        // Opened once the subscription is stored: its first post may begin before `post` returns.
        let stored = DispatchSemaphore(value: 0)
        let cancelReturned = LockedList<String>()
        let otherObserverPosts = LockedList<String>()
        let cancelling = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            guard stored.wait(timeout: .now() + 10) == .success else { return }
            stored.signal()
            guard let own = subscription.value else { return }
            own.cancel()
            cancelReturned.append("returned")
        }
        defer { center.removeObserver(cancelling) }
        let other = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            otherObserverPosts.append("post")
        }
        defer { center.removeObserver(other) }
        try subscription.withLock { $0 = try posting.bridge.post(name, every: .milliseconds(1), firstFireAfter: .zero) }
        stored.signal()

        try await cancelReturned.waitForCount(1)
        try await otherObserverPosts.waitForCount(1)
        let witness = try posting.bridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        try await posting.recorder.waitForPosts(.witness, count: 10)
        witness.cancel()
        #expect(posting.recorder.count(name) == 1)
        #expect(cancelReturned.count == 1)
        #expect(otherObserverPosts.count == 1)
    }
}
