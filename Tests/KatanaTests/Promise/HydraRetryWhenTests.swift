import Dispatch
import Testing
@testable import Katana

/// Hydra's `retryWhen` and `retry` with a condition.
@Suite struct HydraRetryWhenTests {
    /// A body-based promise whose body fails (code = attempt number) until attempt `succeedOn`.
    private func flakyPromise(attempts: Counter, succeedOn: Int) -> Promise<Int> {
        Promise(in: .global()) { resolve, reject in
            let attempt = attempts.increment()
            if attempt >= succeedOn {
                resolve(attempt)
            } else {
                reject(TestError(code: attempt))
            }
        }
    }

    @Test func retryWhen_retriesWhileTheConditionIsTrue() throws {
        let attempts = Counter()
        let value = try flakyPromise(attempts: attempts, succeedOn: 3)
            .retryWhen(5) { _, _ in Promise(resolved: true) }
            .wait(timeout: defaultTestTimeout)
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWhen_stopsWhenTheConditionIsFalse_withThatAttemptsError() {
        let attempts = Counter()
        let asked = Recorder<Int>()
        let retried = flakyPromise(attempts: attempts, succeedOn: 100).retryWhen(5) { remaining, _ in
            asked.append(remaining)
            return Promise(resolved: remaining > 3)
        }
        #expect(rejection(of: retried, timeout: defaultTestTimeout) as? TestError == TestError(code: 2))
        #expect(attempts.value == 2)
        #expect(asked.values == [4, 3])
    }

    @Test func retryWhen_givesUpAfterTheLastAttempt_askingWithTheAttemptsLeft() {
        let attempts = Counter()
        let asked = Recorder<Int>()
        let retried = flakyPromise(attempts: attempts, succeedOn: 100).retryWhen(3) { remaining, error in
            asked.append(remaining)
            return Promise(resolved: error is TestError)
        }
        #expect(rejection(of: retried, timeout: defaultTestTimeout) as? TestError == TestError(code: 3))
        #expect(attempts.value == 3)
        #expect(asked.values == [2, 1])
    }

    @Test func retryWhen_rejectedOrThrowingCondition_stopsWithTheAttemptsError() {
        let rejectedAttempts = Counter()
        let rejecting = flakyPromise(attempts: rejectedAttempts, succeedOn: 100).retryWhen(3) { _, _ in
            Promise<Bool>(rejected: TestError(code: 99))
        }
        #expect(rejection(of: rejecting, timeout: defaultTestTimeout) as? TestError == TestError(code: 1))
        #expect(rejectedAttempts.value == 1)

        let thrownAttempts = Counter()
        let throwing = flakyPromise(attempts: thrownAttempts, succeedOn: 100).retryWhen(3) { _, _ in
            throw TestError(code: 98)
        }
        #expect(rejection(of: throwing, timeout: defaultTestTimeout) as? TestError == TestError(code: 1))
        #expect(thrownAttempts.value == 1)
    }

    @Test func retryWhen_conditionRunsOnTheGivenQueue() throws {
        let marked = MarkedQueue("test.hydra.retryWhen")
        let queues = Recorder<String>()
        let attempts = Counter()
        let value = try flakyPromise(attempts: attempts, succeedOn: 2)
            .retryWhen(in: marked.queue, 3) { _, _ in
                queues.append(MarkedQueue.current ?? "other")
                return Promise(resolved: true)
            }
            .wait(timeout: defaultTestTimeout)
        #expect(value == 2)
        #expect(queues.values == ["test.hydra.retryWhen"])
    }

    @Test(arguments: [0, -2])
    func retryWhen_lessThanOneAttempt_rejectsWithInvalidRetryAttempts(attempts: Int) {
        let retried = Promise(resolved: 1).retryWhen(attempts)
        #expect(rejection(of: retried, timeout: defaultTestTimeout)?.katana == .invalidRetryAttempts(attempts))
    }

    @Test func retryWhen_onADispatch_dispatchesTheItemAgain() throws {
        let store = makeStore()
        let attempts = Counter()
        let value = try store.dispatch(Flaky(attempts: attempts, succeedOn: 3))
            .retryWhen(3) { _, error in Promise(resolved: error is TestError) }
            .wait(timeout: defaultTestTimeout)
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWhen_onADispatch_stopsWhenTheConditionSaysSo() {
        let store = makeStore()
        let attempts = Counter()
        let retried = store.dispatch(Flaky(attempts: attempts, succeedOn: 3)).retryWhen(3) { _, _ in
            Promise(resolved: false)
        }
        #expect(rejection(of: retried, timeout: defaultTestTimeout) as? TestError == TestError(code: 1))
        #expect(attempts.value == 1)
    }

    // MARK: - retry with a condition

    @Test func retryWithCondition_retriesWhileTrue() throws {
        let attempts = Counter()
        let value = try flakyPromise(attempts: attempts, succeedOn: 3)
            .retry(3) { _, error in error is TestError }
            .wait(timeout: defaultTestTimeout)
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWithCondition_stopsWhenFalseOrThrowing() {
        let attempts = Counter()
        let stopped = flakyPromise(attempts: attempts, succeedOn: 100).retry(5) { _, error in
            (error as? TestError)?.code != 2
        }
        #expect(rejection(of: stopped, timeout: defaultTestTimeout) as? TestError == TestError(code: 2))
        #expect(attempts.value == 2)

        let thrownAttempts = Counter()
        let thrown = flakyPromise(attempts: thrownAttempts, succeedOn: 100).retry(5) { _, _ in
            throw TestError(code: 7)
        }
        #expect(rejection(of: thrown, timeout: defaultTestTimeout) as? TestError == TestError(code: 1))
        #expect(thrownAttempts.value == 1)
    }
}
