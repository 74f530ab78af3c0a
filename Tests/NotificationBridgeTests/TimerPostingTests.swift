import Dispatch
import Foundation
import KatanaTestSupport
import Testing

@testable import NotificationBridge

/// Records every post of a center, and whether its subscription's `cancel()` had already returned
/// when it arrived.
private final class CancellationChecker {
    struct Post: Sendable {
        let name: Notification.Name
        let afterCancel: Bool
    }

    let posts: LockedList<Post>
    private let cancelledNames: LockedValue<Set<Notification.Name>>
    private let center: NotificationCenter
    private let observation: any NSObjectProtocol

    init(center: NotificationCenter) {
        let posts = LockedList<Post>()
        let cancelledNames = LockedValue<Set<Notification.Name>>([])
        self.posts = posts
        self.cancelledNames = cancelledNames
        self.center = center
        observation = center.addObserver(forName: nil, object: nil, queue: nil) { notification in
            let afterCancel = cancelledNames.withLock { $0.contains(notification.name) }
            posts.append(Post(name: notification.name, afterCancel: afterCancel))
        }
    }

    deinit {
        center.removeObserver(observation)
    }

    /// Suspends until `name` has been posted at least `count` times.
    func waitForPosts(_ name: Notification.Name, count: Int = 1) async throws {
        try await posts.waitUntil("\(count) posts of \(name.rawValue)") { $0.lazy.filter { $0.name == name }.count >= count }
    }

    /// Call right after `cancel()` returned: any later post of `name` is a violation.
    func cancelReturned(for name: Notification.Name) {
        _ = cancelledNames.withLock { $0.insert(name) }
    }

    var postsAfterCancel: [Notification.Name] {
        posts.all.filter(\.afterCancel).map(\.name)
    }
}

struct TimerPostingTests {
    @Test
    func repeatingTimerCountsFiresInOrder() async throws {
        let posting = Posting()
        let subscription = try posting.bridge.post(.testTimer, every: .milliseconds(5))

        try await posting.recorder.waitForPosts(.testTimer, count: 3)
        subscription.cancel()

        let posts = posting.recorder.posts(named: .testTimer)
        #expect(posts.prefix(3).map(\.fireCount) == [1, 2, 3])
        #expect(posts.map(\.fireCount) == posts.indices.map { $0 + 1 })
        let dates = posts.compactMap(\.fireDate)
        #expect(dates.count == posts.count)
        #expect(dates == dates.sorted())
        #expect(posts.allSatisfy { $0.object == ObjectIdentifier(posting.bridge) && $0.signal == nil })
    }

    @Test
    func repeatingTimerWithZeroFirstDelayFiresAtOnceAndKeepsGoing() async throws {
        let posting = Posting()
        let subscription = try posting.bridge.post(
            .testTimer, every: .milliseconds(2), leeway: .milliseconds(1), firstFireAfter: .zero)

        try await posting.recorder.waitForPosts(.testTimer, count: 2)
        subscription.cancel()
        #expect(!subscription.isActive)
    }

    @Test
    func oneShotTimerFiresExactlyOnce() async throws {
        let posting = Posting()
        let oneShot = try posting.bridge.post(.testTimer, after: .milliseconds(5))

        try await posting.recorder.waitForPosts(.testTimer)
        // A one-shot ends once its post has returned: nothing signals that but the flag itself.
        try await poll("the one-shot to end") { !oneShot.isActive }
        #expect(posting.bridge.activeSubscriptions.isEmpty)

        // Let a fast witness fire many times: the one-shot must not have fired again meanwhile.
        try await posting.letAWitnessFireTenTimes()

        let posts = posting.recorder.posts(named: .testTimer)
        #expect(posts.count == 1)
        #expect(posts.first?.fireCount == 1)
        #expect(posts.first?.fireDate != nil)
        #expect(posts.first?.object == ObjectIdentifier(posting.bridge))
    }

    @Test
    func oneShotTimerWithZeroDelayFires() async throws {
        let posting = Posting()
        try posting.bridge.post(.testTimer, after: .zero)

        try await posting.recorder.waitForPosts(.testTimer)
        #expect(posting.recorder.count(.testTimer) == 1)
        try await poll("the one-shot to end") { posting.bridge.activeSubscriptions.isEmpty }
    }

    @Test
    func droppingTheHandleKeepsTheSubscriptionActive() async throws {
        let posting = Posting()
        try posting.bridge.post(.testTimer, every: .milliseconds(2), firstFireAfter: .zero)

        try await posting.recorder.waitForPosts(.testTimer, count: 3)
        #expect(posting.bridge.activeSubscriptions.count == 1)
        posting.bridge.cancelAll()
    }

    @Test
    func cancelAllStopsEveryTimerOfTheBridge() async throws {
        let posting = Posting()
        let recorder = posting.recorder
        let first = try posting.bridge.post(.testTimer, every: .milliseconds(1), firstFireAfter: .zero)
        let second = try posting.bridge.post(.testSignal, every: .milliseconds(1), firstFireAfter: .zero)
        try await recorder.waitForPosts(.testTimer)
        try await recorder.waitForPosts(.testSignal)

        posting.bridge.cancelAll()
        let countsAtCancel = (recorder.count(.testTimer), recorder.count(.testSignal))
        #expect(!first.isActive)
        #expect(!second.isActive)
        #expect(posting.bridge.activeSubscriptions.isEmpty)

        try await posting.letAWitnessFireTenTimes()
        #expect((recorder.count(.testTimer), recorder.count(.testSignal)) == countsAtCancel)
    }

    @Test
    func releasingTheBridgeCancelsItsTimers() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        weak var released: NotificationBridge?
        weak var subscription: NotificationBridgeSubscription?
        do {
            let bridge = NotificationBridge(center: center)
            subscription = try bridge.post(
                .testTimer, every: .milliseconds(1), firstFireAfter: .zero)
            released = bridge
            try await recorder.waitForPosts(.testTimer)
        }
        // Nothing signals a release: the weak references are looked at until they clear.
        try await poll("the bridge to be released") { released == nil }
        // The weak reference is cleared when the release begins; the bridge's deinit, which
        // cancels its subscriptions, may still be running on the thread that released it (a timer
        // post in progress held the last reference), so the subscription ends shortly after.
        try await poll("the subscription to end") { subscription?.isActive != true }
        let countAtRelease = recorder.count(.testTimer)

        let witnessBridge = NotificationBridge(center: center)
        try witnessBridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        try await recorder.waitForPosts(.witness, count: 10)
        witnessBridge.cancelAll()
        #expect(recorder.count(.testTimer) == countAtRelease)
    }

    @Test
    func noPostArrivesAfterCancelReturnsUnderLoad() async throws {
        let center = NotificationCenter()
        let checker = CancellationChecker(center: center)
        let bridge = NotificationBridge(center: center)

        for iteration in 0..<1_000 {
            let name = Notification.Name("NotificationBridgeTests.load.\(iteration)")
            let subscription = try bridge.post(
                name, every: .milliseconds(1), firstFireAfter: .zero)
            if iteration.isMultiple(of: 2) {
                // Cancel while the timer is known to be firing.
                try await checker.waitForPosts(name)
            }
            subscription.cancel()
            checker.cancelReturned(for: name)
        }

        // Give stray timer events the chance to show up before judging.
        try bridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        try await checker.waitForPosts(.witness, count: 10)
        bridge.cancelAll()
        #expect(checker.postsAfterCancel.isEmpty)
    }

    @Test
    func observerMayCancelTheSubscriptionWhileHandlingItsPost() async throws {
        let posting = Posting()
        let bridge = posting.bridge
        // Observe before subscribing, so that the very first post cancels.
        let observation = posting.center.addObserver(forName: .testTimer, object: nil, queue: nil) { _ in
            for subscription in bridge.activeSubscriptions where subscription.name == .testTimer {
                subscription.cancel()
            }
        }
        defer { posting.center.removeObserver(observation) }
        let subscription = try bridge.post(
            .testTimer, every: .milliseconds(1), firstFireAfter: .zero)

        try await posting.recorder.waitForPosts(.testTimer)
        try await poll("the subscription to end") { !subscription.isActive }
        try await posting.letAWitnessFireTenTimes()
        #expect(posting.recorder.count(.testTimer) == 1)
    }

    @Test
    func postsComeFromTheConfiguredQueue() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let queue = DispatchQueue(label: "NotificationBridgeTests.custom")
        queue.setSpecific(key: markedQueueKey, value: "custom")
        let bridge = NotificationBridge(center: center, queue: queue)
        #expect(bridge.queue === queue)
        try bridge.post(.testTimer, after: .zero)

        try await recorder.waitForPosts(.testTimer)
        #expect(recorder.count(.testTimer) == 1)
        #expect(recorder.posts(named: .testTimer).allSatisfy { $0.isOnMarkedQueue })
    }

    @Test
    func invalidTimerArgumentsAreRejected() throws {
        let bridge = NotificationBridge(center: NotificationCenter())
        #expect(throws: NotificationBridgeError.nonPositiveInterval(.zero)) {
            try bridge.post(.testTimer, every: .zero)
        }
        #expect(throws: NotificationBridgeError.nonPositiveInterval(.seconds(-1))) {
            try bridge.post(.testTimer, every: .seconds(-1))
        }
        #expect(throws: NotificationBridgeError.negativeDelay(.milliseconds(-1))) {
            try bridge.post(.testTimer, every: .seconds(1), firstFireAfter: .milliseconds(-1))
        }
        #expect(throws: NotificationBridgeError.negativeLeeway(.nanoseconds(-1))) {
            try bridge.post(.testTimer, every: .seconds(1), leeway: .nanoseconds(-1))
        }
        #expect(throws: NotificationBridgeError.negativeDelay(.milliseconds(-5))) {
            try bridge.post(.testTimer, after: .milliseconds(-5))
        }
        #expect(throws: NotificationBridgeError.negativeLeeway(.seconds(-2))) {
            try bridge.post(.testTimer, after: .zero, leeway: .seconds(-2))
        }
        #expect(bridge.activeSubscriptions.isEmpty)
    }

    @Test
    func durationsBecomeWholePositiveNanoseconds() {
        #expect(Duration.zero.dispatchInterval == .nanoseconds(0))
        #expect(Duration.seconds(-3).dispatchInterval == .nanoseconds(0))
        #expect(Duration.milliseconds(5).dispatchInterval == .nanoseconds(5_000_000))
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 1).dispatchInterval
            == .nanoseconds(1))
        #expect(Duration.seconds(Int64.max).dispatchInterval == .nanoseconds(Int(Int64.max)))
    }
}
