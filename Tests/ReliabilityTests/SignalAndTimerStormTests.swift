import Dispatch
import Foundation
import KatanaTestSupport
import NotificationBridge
import SignalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Notification.Name {
    static let stormCancelled = Notification.Name("ReliabilityTests.storm.cancelled")
    static let stormWitness = Notification.Name("ReliabilityTests.storm.witness")
}

/// Records the name of every post, and flags any post of `.stormCancelled` that arrives after its
/// subscription's `cancel()` returned.
final class StormRecorder: @unchecked Sendable {
    // @unchecked: its properties are constants of Sendable types, but for `observation`, which is
    // only used to remove the observer.
    /// Every post's name, in order: a test awaits a count, woken by each post.
    let posts = LockedList<Notification.Name>()
    private let cancelReturned = LockedValue(false)
    private let lateForCancelled = LockedValue(0)
    private var observation: (any NSObjectProtocol)?
    private let center: NotificationCenter

    init(center: NotificationCenter) {
        self.center = center
        observation = center.addObserver(forName: nil, object: nil, queue: nil) { [weak self] note in
            self?.record(note.name)
        }
    }

    deinit {
        if let observation { center.removeObserver(observation) }
    }

    private func record(_ name: Notification.Name) {
        if name == .stormCancelled, cancelReturned.value { lateForCancelled.withLock { $0 += 1 } }
        posts.append(name)
    }

    func count(_ name: Notification.Name) -> Int { posts.all.count { $0 == name } }
    func markCancelReturned() { cancelReturned.withLock { $0 = true } }
    var postsAfterCancel: Int { lateForCancelled.value }

    /// Suspends until more than `count` posts named `name` have arrived.
    func waitForMore(than count: Int, of name: Notification.Name) async throws {
        try await posts.waitUntil("more than \(count) posts of \(name.rawValue)", timeout: reliabilityTimeout) { posts in
            posts.count { $0 == name } > count
        }
    }
}

extension ReliabilityStorms {
    /// Item 4: signal storms and timer storms.
    @Suite struct SignalAndTimerStormTests {
        static let signals = 10_000
        static let timers = 10_000

        /// 10,000 SIGUSR1 sent to the process from two threads while two bridges listen; one
        /// subscription is cancelled in the middle of the storm. Runs with exclusive signal access, so
        /// it never overlaps the NotificationBridgeTests signal suite.
        @Test func sigusr1Storm_10000Signals_noCrash_posts_andCancelMidStormIsHonoured() async throws {
            let ran: Void? = try await withExclusiveSignalAccess(holder: "ReliabilityTests.sigusr1Storm") {
                var original = sigaction()
                sigaction(SIGUSR1, nil, &original)
                // Known disposition: ignored, so a signal arriving after the last cancel is harmless.
                var ignore = sigaction()
                ignore.__sigaction_handler.sa_handler = SIG_IGN
                sigemptyset(&ignore.sa_mask)
                sigaction(SIGUSR1, &ignore, nil)
                defer { sigaction(SIGUSR1, &original, nil) }

                try await storm()
            }
            #expect(ran != nil, "exclusive signal access not granted (held by \(ExclusiveSignalAccess.currentHolder ?? "nobody"))")
        }

        private func storm() async throws {
            let center = NotificationCenter()
            let recorder = StormRecorder(center: center)
            let cancelledBridge = NotificationBridge(center: center)
            let witnessBridge = NotificationBridge(center: center)
            let cancelled = try cancelledBridge.post(.stormCancelled, onSignal: SIGUSR1)
            // The witness keeps SIGUSR1 subscribed after the cancel, so the second half of the storm
            // still reaches the bridges: any post of the cancelled subscription would show.
            let witness = try witnessBridge.post(.stormWitness, onSignal: SIGUSR1)
            defer { witness.cancel() }

            let sent = LockedValue(0)
            let failedKills = LockedValue(0)
            let atCancel = LockedValue((cancelled: 0, witness: 0, sent: 0))
            let half = Self.signals / 2
            let quarter = half / 2
            let cancelAt = half + half / 10
            // Signalled when the signal the cancel waits for has been sent, and when the cancel has
            // returned: the threads that wait for them block on them, woken at that moment.
            let cancelMoment = DispatchSemaphore(value: 0)
            let cancelDone = DispatchSemaphore(value: 0)
            let sendOne: @Sendable () -> Void = {
                if kill(getpid(), SIGUSR1) != 0 { failedKills.withLock { $0 += 1 } }
                if sent.withLock({ $0 += 1; return $0 }) == cancelAt { cancelMoment.signal() }
            }

            // First half of the storm, from two threads, with both subscriptions.
            #expect(await runConcurrently(threads: 2) { _ in for _ in 0..<quarter { sendOne() } })
            try await recorder.waitForMore(than: 0, of: .stormCancelled)
            try await recorder.waitForMore(than: 0, of: .stormWitness)

            // Second half, from two threads, while a third cancels once 10% of it has been sent.
            // Thread 0 never stops; thread 1 pauses after 60% of its share until the cancel has
            // returned, so the storm surely goes on after the cancel.
            let secondHalf = await runConcurrently(threads: 3) { thread in
                switch thread {
                case 0:
                    for _ in 0..<quarter { sendOne() }
                case 1:
                    for _ in 0..<(quarter * 6 / 10) { sendOne() }
                    _ = cancelDone.wait(timeout: .now() + Double(reliabilityTimeout.components.seconds))
                    for _ in 0..<(quarter - quarter * 6 / 10) { sendOne() }
                default:
                    _ = cancelMoment.wait(timeout: .now() + Double(reliabilityTimeout.components.seconds))
                    cancelled.cancel()
                    recorder.markCancelReturned()
                    atCancel.withLock {
                        $0 = (recorder.count(.stormCancelled), recorder.count(.stormWitness), sent.value)
                    }
                    cancelDone.signal()
                }
            }
            #expect(secondHalf)
            let cancelledPosts = atCancel.value.cancelled
            let witnessAtCancel = atCancel.value.witness
            #expect(atCancel.value.sent < Self.signals, "the cancel came after the storm: \(atCancel.value.sent) sent")

            // The storm went on after the cancel (the witness still posts): one more signal makes sure
            // of it whatever the kernel merged, then both posting queues are drained.
            kill(getpid(), SIGUSR1)
            try await recorder.waitForMore(than: witnessAtCancel, of: .stormWitness)
            await drain(cancelledBridge.queue)
            await drain(witnessBridge.queue)

            #expect(sent.value == Self.signals)
            #expect(failedKills.value == 0)
            #expect(!cancelled.isActive)
            #expect(recorder.postsAfterCancel == 0)
            #expect(recorder.count(.stormCancelled) == cancelledPosts)
            // The kernel merges pending signals: at least one post, never more than one per signal.
            #expect(cancelledPosts >= 1 && cancelledPosts <= Self.signals)
            #expect(recorder.count(.stormWitness) <= Self.signals + 1_000)
        }

        /// 10,000 timers (one-shot and repeating, with and without delay) created and cancelled on one
        /// bridge from 4 threads; nothing posts after its cancel returned.
        @Test func timerStorm_10000TimersCreatedAndCancelledFrom4Threads_noPostAfterCancel() async throws {
            let center = NotificationCenter()
            let bridge = NotificationBridge(center: center)
            let prefix = "ReliabilityTests.timer."
            let ledger = TimerLedger(count: Self.timers)
            let observation = center.addObserver(forName: nil, object: bridge, queue: nil) { note in
                guard note.name.rawValue.hasPrefix(prefix),
                      let index = Int(note.name.rawValue.dropFirst(prefix.count)) else { return }
                ledger.posted(index, fireCount: note.userInfo?[NotificationBridge.fireCountKey] as? Int)
            }
            defer { center.removeObserver(observation) }

            let failures = LockedValue<[String]>([])
            let perThread = Self.timers / 4
            let finished = await runConcurrently(threads: 4) { thread in
                for index in (thread * perThread)..<((thread + 1) * perThread) {
                    let name = Notification.Name(prefix + String(index))
                    do {
                        let subscription: NotificationBridgeSubscription
                        switch index % 4 {
                        case 0: subscription = try bridge.post(name, after: .zero)
                        case 1: subscription = try bridge.post(name, after: .microseconds(200))
                        case 2: subscription = try bridge.post(name, every: .milliseconds(1))
                        default: subscription = try bridge.post(name, every: .milliseconds(1), firstFireAfter: .zero)
                        }
                        if index % 100 == 3 {
                            // Every 100th repeating timer is left to fire twice before it is cancelled.
                            ledger.waitForPosts(of: index, count: 2, timeout: reliabilityTimeout)
                        } else if index % 3 == 0 {
                            usleep(UInt32(index % 500))
                        }
                        subscription.cancel()
                        ledger.cancelled(index)
                    } catch {
                        failures.withLock { $0.append("timer \(index): \(error)") }
                    }
                }
            }
            #expect(finished)
            #expect(failures.value.isEmpty, "\(failures.value)")

            // Drain the posting queue, and give any stray timer event time to show.
            await drain(bridge.queue)
            try await Task.sleep(for: .milliseconds(50))
            await drain(bridge.queue)

            #expect(ledger.postsAfterCancel == [], "posted after cancel: \(ledger.postsAfterCancel.prefix(10))")
            #expect(bridge.activeSubscriptions.isEmpty)
            for index in stride(from: 3, to: Self.timers, by: 100) {
                #expect(ledger.fireCounts(index).prefix(2) == [1, 2], "timer \(index)")
            }
            #expect(ledger.everFired >= Self.timers / 100)
        }
    }
}

/// Per timer: its posts' fire counts, whether its cancel returned, and posts after that.
final class TimerLedger: @unchecked Sendable {
    // @unchecked: every property is only touched while holding `condition`.
    /// Guards the properties below; each post wakes the threads waiting in ``waitForPosts(of:count:timeout:)``.
    private let condition = NSCondition()
    private var counts: [[Int]]
    private var cancelledFlags: [Bool]
    private var late: [Int] = []

    init(count: Int) {
        counts = Array(repeating: [], count: count)
        cancelledFlags = Array(repeating: false, count: count)
    }

    private func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    func posted(_ index: Int, fireCount: Int?) {
        locked {
            counts[index].append(fireCount ?? -1)
            if cancelledFlags[index] { late.append(index) }
            condition.broadcast()
        }
    }

    /// Blocks the calling thread (a storm's, never a test task's) until timer `index` has posted
    /// `count` times, woken by each post; gives up after `timeout`.
    func waitForPosts(of index: Int, count: Int, timeout: Duration) {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        locked {
            while counts[index].count < count, condition.wait(until: deadline) {}
        }
    }

    func cancelled(_ index: Int) { locked { cancelledFlags[index] = true } }
    func fireCounts(_ index: Int) -> [Int] { locked { counts[index] } }
    var postsAfterCancel: [Int] { locked { late } }
    var everFired: Int { locked { counts.filter { !$0.isEmpty }.count } }
}
