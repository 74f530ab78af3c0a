import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// However a side effect blocks, one dispatched meanwhile starts promptly (docs/Architecture.md,
/// "Store semantics"): side effects run on threads of the package's own, not on a dispatch queue
/// that adds threads slowly. Past the threads' cap, work waits for a thread; it is never lost.
@Suite struct BlockingSideEffectTests {
    /// How many side effects block while the short ones run.
    private static let blockedCount = 64
    /// How many short side effects run past them.
    private static let shortCount = 10_000

    /// A side effect that blocks its thread in the way `block` says until released.
    private struct Blocking: SideEffect {
        let started: LockedList<Void>
        let block: @Sendable () -> Void
        func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
            started.append(())
            block()
        }
    }

    /// A side effect that returns at once.
    private struct Short: SideEffect {
        let done: LockedList<Void>
        func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
            done.append(())
        }
    }

    /// A returning side effect that blocks until `release` opens, then returns 1.
    private struct SlowValue: ReturningSideEffect {
        let release: Latch
        func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
            release.wait(timeout: holdTimeout)
            return 1
        }
    }

    /// A returning side effect that fails at once.
    private struct FailsAtOnce: ReturningSideEffect {
        func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
            throw TestError(code: 7)
        }
    }

    /// Dispatches the blocked side effects, waits until all have started, runs the short ones to
    /// their end while the blocked ones still block, then releases them with `release`.
    private func shortOnesRunPast(blocking block: @escaping @Sendable () -> Void, release: () -> Void) async throws {
        let store = makeStore()
        let started = LockedList<Void>()
        let blocked = (0 ..< Self.blockedCount).map { _ in store.dispatch(Blocking(started: started, block: block)) }
        try await started.waitUntil("\(Self.blockedCount) blocked side effects to start") { $0.count == Self.blockedCount }
        let done = LockedList<Void>()
        let short = (0 ..< Self.shortCount).map { _ in store.dispatch(Short(done: done)) }
        for promise in short {
            _ = try await promise.settled()
        }
        #expect(done.count == Self.shortCount)
        // None of the short ones waited for a blocked one to end: all are still blocked.
        #expect(blocked.allSatisfy { $0.isPending })
        release()
        for promise in blocked {
            _ = try await promise.settled()
        }
    }

    @Test func sixtyFourBlockedInThreadSleep_tenThousandShortOnesStillComplete() async throws {
        let released = Latch()
        let isReleased = LockedValue(false)
        try await shortOnesRunPast(blocking: {
            // Blocked in sleeps until released (and at most for the hold timeout).
            let deadline = ContinuousClock.now + holdTimeout
            while !isReleased.withLock({ $0 }), ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }, release: {
            isReleased.withLock { $0 = true }
            released.open()
        })
    }

    @Test func sixtyFourBlockedOnASemaphore_tenThousandShortOnesStillComplete() async throws {
        let semaphore = DispatchSemaphore(value: 0)
        try await shortOnesRunPast(blocking: {
            _ = semaphore.wait(timeout: .now() + holdTimeout.timeInterval)
        }, release: {
            for _ in 0 ..< Self.blockedCount {
                semaphore.signal()
            }
        })
    }

    @Test func sixtyFourBlockedInThePackagesWait_tenThousandShortOnesStillComplete() async throws {
        let gate = Promise<Void>.pending()
        try await shortOnesRunPast(blocking: {
            _ = try? gate.wait(timeout: holdTimeout)
        }, release: {
            _ = gate.resolve(())
        })
    }

    /// The case the issue was found with: while two side effects block (as many as this machine
    /// has cores), `any` over a third that blocks and a fourth that fails at once settles with the
    /// failure, not once the blocked one returns.
    @Test func anyOverABlockedSideEffectAndOneThatFailsAtOnce_settlesWithTheFailure_whileTwoOthersBlock() async throws {
        let store = makeStore()
        let started = LockedList<Void>()
        let release = Latch()
        let blocked = (0 ..< 2).map { _ in
            store.dispatch(Blocking(started: started) { release.wait(timeout: holdTimeout) })
        }
        try await started.waitUntil("2 started") { $0.count == 2 }
        let slow = store.dispatch(SlowValue(release: release))
        let first = any(slow, store.dispatch(FailsAtOnce()))
        await #expect(throws: TestError(code: 7)) {
            try await first.settled()
        }
        #expect(slow.isPending)
        release.open()
        #expect(try await slow.settled() == 1)
        for promise in blocked {
            _ = try await promise.settled()
        }
    }

    @Test func pastTheCap_aSideEffectIsQueued_andRunsOnceAThreadFrees() async throws {
        let threads = WorkerThreads(maximumThreads: 4, idleTimeout: .seconds(1), name: "test.cap")
        var configuration = testConfiguration()
        configuration.workerThreads = threads
        let store = makeStore(configuration: configuration)
        let started = LockedList<Void>()
        let semaphore = DispatchSemaphore(value: 0)
        let blocked = (0 ..< 4).map { _ in
            store.dispatch(Blocking(started: started) { _ = semaphore.wait(timeout: .now() + holdTimeout.timeInterval) })
        }
        try await started.waitUntil("4 started") { $0.count == 4 }
        let done = LockedList<Void>()
        let queued = store.dispatch(Short(done: done))
        // Every thread of the pool is blocked: the fifth waits, counted, and is not run.
        try await poll("the fifth to wait for a thread") { threads.statistics.queued == 1 }
        #expect(done.count == 0)
        #expect(queued.isPending)
        #expect(store.activeSideEffectCount == 5)
        semaphore.signal()
        _ = try await queued.settled()
        #expect(done.count == 1)
        for _ in 1 ..< 4 {
            semaphore.signal()
        }
        for promise in blocked {
            _ = try await promise.settled()
        }
    }

    @Test func pastTheCap_aSideEffectBlockedInThePackagesWait_letsTheQueuedOnesRun() async throws {
        var configuration = testConfiguration()
        configuration.workerThreads = WorkerThreads(maximumThreads: 2, idleTimeout: .seconds(1), name: "test.cap.wait")
        let store = makeStore(configuration: configuration)
        let started = LockedList<Void>()
        let gate = Promise<Void>.pending()
        let blocked = (0 ..< 8).map { _ in
            store.dispatch(Blocking(started: started) { _ = try? gate.wait(timeout: holdTimeout) })
        }
        // A blocked `wait` does not count against the cap: all eight start.
        try await started.waitUntil("8 started") { $0.count == 8 }
        let done = LockedList<Void>()
        let short = (0 ..< 100).map { _ in store.dispatch(Short(done: done)) }
        for promise in short {
            _ = try await promise.settled()
        }
        #expect(done.count == 100)
        _ = gate.resolve(())
        for promise in blocked {
            _ = try await promise.settled()
        }
    }
}
