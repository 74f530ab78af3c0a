import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Hydra's `retryWhen` and `retry` with a condition.
@Suite struct HydraRetryWhenTests {
    /// A body-based promise whose body fails (code = attempt number) until attempt `succeedOn`.
    private func flakyPromise(attempts: LockedValue<Int>, succeedOn: Int) -> Promise<Int> {
        Promise(in: .global()) { resolve, reject in
            let attempt = attempts.increment()
            if attempt >= succeedOn {
                resolve(attempt)
            } else {
                reject(TestError(code: attempt))
            }
        }
    }

    @Test func retryWhen_retriesWhileTheConditionIsTrue() async throws {
        let attempts = LockedValue(0)
        let value = try await flakyPromise(attempts: attempts, succeedOn: 3)
            .retryWhen(5) { _, _ in Promise(resolved: true) }
            .settled()
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWhen_stopsWhenTheConditionIsFalse_withThatAttemptsError() async throws {
        let attempts = LockedValue(0)
        let asked = LockedList<Int>()
        let retried = flakyPromise(attempts: attempts, succeedOn: 100).retryWhen(5) { remaining, _ in
            asked.append(remaining)
            return Promise(resolved: remaining > 3)
        }
        #expect(try await rejection(of: retried) as? TestError == TestError(code: 2))
        #expect(attempts.value == 2)
        #expect(asked.all == [4, 3])
    }

    @Test func retryWhen_givesUpAfterTheLastAttempt_askingWithTheAttemptsLeft() async throws {
        let attempts = LockedValue(0)
        let asked = LockedList<Int>()
        let retried = flakyPromise(attempts: attempts, succeedOn: 100).retryWhen(3) { remaining, error in
            asked.append(remaining)
            return Promise(resolved: error is TestError)
        }
        #expect(try await rejection(of: retried) as? TestError == TestError(code: 3))
        #expect(attempts.value == 3)
        #expect(asked.all == [2, 1])
    }

    @Test func retryWhen_rejectedOrThrowingCondition_stopsWithTheAttemptsError() async throws {
        let rejectedAttempts = LockedValue(0)
        let rejecting = flakyPromise(attempts: rejectedAttempts, succeedOn: 100).retryWhen(3) { _, _ in
            Promise<Bool>(rejected: TestError(code: 99))
        }
        #expect(try await rejection(of: rejecting) as? TestError == TestError(code: 1))
        #expect(rejectedAttempts.value == 1)

        let thrownAttempts = LockedValue(0)
        let throwing = flakyPromise(attempts: thrownAttempts, succeedOn: 100).retryWhen(3) { _, _ in
            throw TestError(code: 98)
        }
        #expect(try await rejection(of: throwing) as? TestError == TestError(code: 1))
        #expect(thrownAttempts.value == 1)
    }

    @Test func retryWhen_conditionRunsOnTheGivenQueue() async throws {
        let marked = MarkedQueue("test.hydra.retryWhen")
        let queues = LockedList<String>()
        let attempts = LockedValue(0)
        let value = try await flakyPromise(attempts: attempts, succeedOn: 2)
            .retryWhen(in: marked.queue, 3) { _, _ in
                queues.append(MarkedQueue.current ?? "other")
                return Promise(resolved: true)
            }
            .settled()
        #expect(value == 2)
        #expect(queues.all == ["test.hydra.retryWhen"])
    }

    @Test(arguments: [0, -2])
    func retryWhen_lessThanOneAttempt_rejectsWithInvalidRetryAttempts(attempts: Int) async throws {
        let retried = Promise(resolved: 1).retryWhen(attempts)
        #expect(try await rejection(of: retried)?.katana == .invalidRetryAttempts(attempts))
    }

    @Test func retryWhen_onADispatch_dispatchesTheItemAgain() async throws {
        let store = makeStore()
        let attempts = LockedValue(0)
        let value = try await store.dispatch(Flaky(attempts: attempts, succeedOn: 3))
            .retryWhen(3) { _, error in Promise(resolved: error is TestError) }
            .settled()
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWhen_onADispatch_stopsWhenTheConditionSaysSo() async throws {
        let store = makeStore()
        let attempts = LockedValue(0)
        let retried = store.dispatch(Flaky(attempts: attempts, succeedOn: 3)).retryWhen(3) { _, _ in
            Promise(resolved: false)
        }
        #expect(try await rejection(of: retried) as? TestError == TestError(code: 1))
        #expect(attempts.value == 1)
    }

    // MARK: - retry with a condition

    @Test func retryWithCondition_retriesWhileTrue() async throws {
        let attempts = LockedValue(0)
        let value = try await flakyPromise(attempts: attempts, succeedOn: 3)
            .retry(3) { _, error in error is TestError }
            .settled()
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWithCondition_stopsWhenFalseOrThrowing() async throws {
        let attempts = LockedValue(0)
        let stopped = flakyPromise(attempts: attempts, succeedOn: 100).retry(5) { _, error in
            (error as? TestError)?.code != 2
        }
        #expect(try await rejection(of: stopped) as? TestError == TestError(code: 2))
        #expect(attempts.value == 2)

        let thrownAttempts = LockedValue(0)
        let thrown = flakyPromise(attempts: thrownAttempts, succeedOn: 100).retry(5) { _, _ in
            throw TestError(code: 7)
        }
        #expect(try await rejection(of: thrown) as? TestError == TestError(code: 1))
        #expect(thrownAttempts.value == 1)
    }
}
