import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Hydra's `timeout` and `defer`. Nothing here asserts how fast anything is: only "not before" a
/// delay (loosely) and "eventually" within the generous test timeout.
@Suite struct HydraTimingTests {
    // MARK: - timeout

    @Test func timeout_passesAFastValue() async throws {
        let source = Controlled<Int>()
        let guarded = source.promise.timeout(timeout: 60)
        DispatchQueue.global().async { source.resolve(3) }
        #expect(try await guarded.settled() == 3)
    }

    @Test func timeout_passesAFastRejection() async throws {
        let guarded = Promise<Int>(rejected: TestError(code: 2)).timeout(timeout: 60)
        #expect(try await rejection(of: guarded) as? TestError == TestError(code: 2))
    }

    @Test func timeout_rejectsWithTimeoutErrorWhenTooSlow() async throws {
        let never = Controlled<Int>()
        let guarded = never.promise.timeout(timeout: 0.05)
        #expect(try await rejection(of: guarded)?.katana == .promiseTimedOut(seconds: 0.05))
    }

    @Test func timeout_rejectsWithTheGivenErrorWhenTooSlow() async throws {
        let never = Controlled<Int>()
        let guarded = never.promise.timeout(timeout: 0.05, error: TestError(code: 408))
        #expect(try await rejection(of: guarded) as? TestError == TestError(code: 408))
    }

    @Test func timeout_firesOnTheGivenQueue_andIgnoresALateValue() async throws {
        let marked = MarkedQueue("test.hydra.timeout")
        let late = Controlled<Int>()
        // Held until the observer below is in place, so the timer cannot fire before it.
        marked.queue.suspend()
        let guarded = late.promise.timeout(in: marked.queue, timeout: 0.05)
        let settledOn = LockedList<String>()
        guarded.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        marked.queue.resume()
        #expect(try await rejection(of: guarded)?.katana == .promiseTimedOut(seconds: 0.05))
        late.resolve(1)
        #expect(try await rejection(of: guarded)?.katana == .promiseTimedOut(seconds: 0.05))
        #expect(settledOn.all == ["test.hydra.timeout"])
    }

    @Test func timeout_onADispatch_rejectsWhenTheSideEffectIsTooSlow() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let guarded = store.dispatch(HoldingSideEffect(started: started, release: release)).timeout(timeout: 0.05)
        #expect(try await rejection(of: guarded)?.katana == .promiseTimedOut(seconds: 0.05))
        release.open()
        #expect(try await store.dispatch(Constant(value: 9)).timeout(timeout: 60).settled() == 9)
    }

    // MARK: - defer

    @Test func defer_delaysTheFulfilment() async throws {
        let start = ContinuousClock.now
        let delayed = Promise(resolved: 1).defer(0.2)
        #expect(try await delayed.settled() == 1)
        // Loosely "not before": the timer's clock and the test's may differ by a little.
        #expect(ContinuousClock.now - start >= .milliseconds(150))
    }

    @Test func defer_fulfilsFromTheGivenQueue() async throws {
        let marked = MarkedQueue("test.hydra.defer")
        let source = Controlled<String>()
        let delayed = source.promise.defer(in: marked.queue, 0.01)
        let settledOn = LockedList<String>()
        delayed.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        source.resolve("late")
        #expect(try await delayed.settled() == "late")
        try await settledOn.waitUntil("the observer to run") { $0 == ["test.hydra.defer"] }
    }

    @Test func defer_passesARejection() async throws {
        let delayed = Promise<Int>(rejected: TestError(code: 5)).defer(60)
        #expect(try await rejection(of: delayed) as? TestError == TestError(code: 5))
    }
}
