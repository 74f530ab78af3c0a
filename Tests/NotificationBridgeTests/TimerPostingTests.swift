import Dispatch
import Foundation
import Testing

@testable import NotificationBridge

/// Counts posts per name and flags any post of a name whose subscription had already been
/// cancelled when it arrived.
// @unchecked Sendable: `counts`, `cancelledNames` and `violations` are only touched while holding `lock`.
private final class CancellationChecker: @unchecked Sendable {
    private let lock = NSLock()
    // guarded by `lock`
    private var counts: [Notification.Name: Int] = [:]
    // guarded by `lock`
    private var cancelledNames: Set<Notification.Name> = []
    // guarded by `lock`
    private var violations: [Notification.Name] = []
    private var observation: NSObjectProtocol?

    init(center: NotificationCenter) {
        observation = center.addObserver(forName: nil, object: nil, queue: nil) {
            [weak self] notification in
            self?.record(notification.name)
        }
    }

    private func record(_ name: Notification.Name) {
        lock.withLock {
            counts[name, default: 0] += 1
            if cancelledNames.contains(name) {
                violations.append(name)
            }
        }
    }

    func count(_ name: Notification.Name) -> Int {
        lock.withLock { counts[name, default: 0] }
    }

    /// Call right after `cancel()` returned: any later post of `name` is a violation.
    func cancelReturned(for name: Notification.Name) {
        _ = lock.withLock { cancelledNames.insert(name) }
    }

    var postsAfterCancel: [Notification.Name] {
        lock.withLock { violations }
    }
}

struct TimerPostingTests {
    @Test
    func repeatingTimerCountsFiresInOrder() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        let subscription = try bridge.post(.testTimer, every: .milliseconds(5))

        #expect(await waitUntil { recorder.count(.testTimer) >= 3 })
        subscription.cancel()

        let posts = recorder.posts(named: .testTimer)
        #expect(posts.prefix(3).map(\.fireCount) == [1, 2, 3])
        #expect(posts.map(\.fireCount) == posts.indices.map { $0 + 1 })
        let dates = posts.compactMap(\.fireDate)
        #expect(dates.count == posts.count)
        #expect(dates == dates.sorted())
        #expect(posts.allSatisfy { $0.object == ObjectIdentifier(bridge) && $0.signal == nil })
    }

    @Test
    func repeatingTimerWithZeroFirstDelayFiresAtOnceAndKeepsGoing() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        let subscription = try bridge.post(
            .testTimer, every: .milliseconds(2), leeway: .milliseconds(1), firstFireAfter: .zero)

        #expect(await waitUntil { recorder.count(.testTimer) >= 2 })
        subscription.cancel()
        #expect(!subscription.isActive)
    }

    @Test
    func oneShotTimerFiresExactlyOnce() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        let oneShot = try bridge.post(.testTimer, after: .milliseconds(5))

        #expect(await waitUntil { recorder.count(.testTimer) >= 1 })
        #expect(await waitUntil { !oneShot.isActive })
        #expect(bridge.activeSubscriptions.isEmpty)

        // Let a fast witness fire many times: the one-shot must not have fired again meanwhile.
        let witness = try bridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { recorder.count(.witness) >= 10 })
        witness.cancel()

        let posts = recorder.posts(named: .testTimer)
        #expect(posts.count == 1)
        #expect(posts.first?.fireCount == 1)
        #expect(posts.first?.fireDate != nil)
        #expect(posts.first?.object == ObjectIdentifier(bridge))
    }

    @Test
    func oneShotTimerWithZeroDelayFires() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        try bridge.post(.testTimer, after: .zero)

        #expect(await waitUntil { recorder.count(.testTimer) == 1 })
        #expect(await waitUntil { bridge.activeSubscriptions.isEmpty })
    }

    @Test
    func droppingTheHandleKeepsTheSubscriptionActive() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        try bridge.post(.testTimer, every: .milliseconds(2), firstFireAfter: .zero)

        #expect(await waitUntil { recorder.count(.testTimer) >= 3 })
        #expect(bridge.activeSubscriptions.count == 1)
        bridge.cancelAll()
    }

    @Test
    func cancelAllStopsEveryTimerOfTheBridge() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        let first = try bridge.post(.testTimer, every: .milliseconds(1), firstFireAfter: .zero)
        let second = try bridge.post(.testSignal, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil {
            recorder.count(.testTimer) >= 1 && recorder.count(.testSignal) >= 1
        })

        bridge.cancelAll()
        let countsAtCancel = (recorder.count(.testTimer), recorder.count(.testSignal))
        #expect(!first.isActive)
        #expect(!second.isActive)
        #expect(bridge.activeSubscriptions.isEmpty)

        let witnessBridge = NotificationBridge(center: center)
        try witnessBridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { recorder.count(.witness) >= 10 })
        witnessBridge.cancelAll()
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
            #expect(await waitUntil { recorder.count(.testTimer) >= 1 })
        }
        #expect(await waitUntil { released == nil })
        // The weak reference is cleared when the release begins; the bridge's deinit, which
        // cancels its subscriptions, may still be running on the thread that released it (a timer
        // post in progress held the last reference), so the subscription ends shortly after.
        #expect(await waitUntil { subscription?.isActive != true })
        let countAtRelease = recorder.count(.testTimer)

        let witnessBridge = NotificationBridge(center: center)
        try witnessBridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { recorder.count(.witness) >= 10 })
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
                #expect(await waitUntil { checker.count(name) >= 1 })
            }
            subscription.cancel()
            checker.cancelReturned(for: name)
        }

        // Give stray timer events the chance to show up before judging.
        try bridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { checker.count(.witness) >= 10 })
        bridge.cancelAll()
        #expect(checker.postsAfterCancel.isEmpty)
    }

    @Test
    func observerMayCancelTheSubscriptionWhileHandlingItsPost() async throws {
        let center = NotificationCenter()
        let recorder = PostRecorder(center: center)
        let bridge = NotificationBridge(center: center)
        // Observe before subscribing, so that the very first post cancels.
        let observation = center.addObserver(forName: .testTimer, object: nil, queue: nil) { _ in
            for subscription in bridge.activeSubscriptions where subscription.name == .testTimer {
                subscription.cancel()
            }
        }
        defer { center.removeObserver(observation) }
        let subscription = try bridge.post(
            .testTimer, every: .milliseconds(1), firstFireAfter: .zero)

        #expect(await waitUntil { !subscription.isActive })
        let witnessBridge = NotificationBridge(center: center)
        try witnessBridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        #expect(await waitUntil { recorder.count(.witness) >= 10 })
        witnessBridge.cancelAll()
        #expect(recorder.count(.testTimer) == 1)
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

        #expect(await waitUntil { recorder.count(.testTimer) == 1 })
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
