import Dispatch
import Testing
@testable import Katana

/// Hydra's `timeout` and `defer`. Nothing here asserts how fast anything is: only "not before" a
/// delay (loosely) and "eventually" within the generous test timeout.
@Suite struct HydraTimingTests {
    // MARK: - timeout

    @Test func timeout_passesAFastValue() throws {
        let source = Controlled<Int>()
        let guarded = source.promise.timeout(timeout: 60)
        DispatchQueue.global().async { source.resolve(3) }
        #expect(try guarded.wait(timeout: defaultTestTimeout) == 3)
    }

    @Test func timeout_passesAFastRejection() {
        let guarded = Promise<Int>(rejected: TestError(code: 2)).timeout(timeout: 60)
        #expect(rejection(of: guarded, timeout: defaultTestTimeout) as? TestError == TestError(code: 2))
    }

    @Test func timeout_rejectsWithTimeoutErrorWhenTooSlow() {
        let never = Controlled<Int>()
        let guarded = never.promise.timeout(timeout: 0.05)
        #expect(rejection(of: guarded, timeout: defaultTestTimeout)?.katana == .promiseTimedOut(seconds: 0.05))
    }

    @Test func timeout_rejectsWithTheGivenErrorWhenTooSlow() {
        let never = Controlled<Int>()
        let guarded = never.promise.timeout(timeout: 0.05, error: TestError(code: 408))
        #expect(rejection(of: guarded, timeout: defaultTestTimeout) as? TestError == TestError(code: 408))
    }

    @Test func timeout_firesOnTheGivenQueue_andIgnoresALateValue() {
        let marked = MarkedQueue("test.hydra.timeout")
        let late = Controlled<Int>()
        // Held until the observer below is in place, so the timer cannot fire before it.
        marked.queue.suspend()
        let guarded = late.promise.timeout(in: marked.queue, timeout: 0.05)
        let settledOn = Recorder<String>()
        guarded.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        marked.queue.resume()
        #expect(rejection(of: guarded, timeout: defaultTestTimeout)?.katana == .promiseTimedOut(seconds: 0.05))
        late.resolve(1)
        #expect(rejection(of: guarded, timeout: defaultTestTimeout)?.katana == .promiseTimedOut(seconds: 0.05))
        #expect(settledOn.values == ["test.hydra.timeout"])
    }

    @Test func timeout_onADispatch_rejectsWhenTheSideEffectIsTooSlow() throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let guarded = store.dispatch(BlockingSideEffect(started: started, release: release)).timeout(timeout: 0.05)
        #expect(rejection(of: guarded, timeout: defaultTestTimeout)?.katana == .promiseTimedOut(seconds: 0.05))
        release.open()
        #expect(try store.dispatch(Constant(value: 9)).timeout(timeout: 60).wait(timeout: defaultTestTimeout) == 9)
    }

    // MARK: - defer

    @Test func defer_delaysTheFulfilment() throws {
        let start = ContinuousClock.now
        let delayed = Promise(resolved: 1).defer(0.2)
        #expect(try delayed.wait(timeout: defaultTestTimeout) == 1)
        // Loosely "not before": the timer's clock and the test's may differ by a little.
        #expect(ContinuousClock.now - start >= .milliseconds(150))
    }

    @Test func defer_fulfilsFromTheGivenQueue() throws {
        let marked = MarkedQueue("test.hydra.defer")
        let source = Controlled<String>()
        let delayed = source.promise.defer(in: marked.queue, 0.01)
        let settledOn = Recorder<String>()
        delayed.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        source.resolve("late")
        #expect(try delayed.wait(timeout: defaultTestTimeout) == "late")
        #expect(eventually { settledOn.values == ["test.hydra.defer"] })
    }

    @Test func defer_passesARejection() {
        let delayed = Promise<Int>(rejected: TestError(code: 5)).defer(60)
        #expect(rejection(of: delayed, timeout: defaultTestTimeout) as? TestError == TestError(code: 5))
    }
}
