import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Retries, with `retrying`, a promise whose body always fails (code = attempt number), and
/// checks that it gives up after attempt `lastAttempt`, with that attempt's error.
private func expectGivesUp(
    afterAttempt lastAttempt: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ retrying: (Promise<Int>) -> Promise<Int>
) async throws {
    let attempts = LockedValue(0)
    let retried = retrying(flakyPromise(attempts: attempts, succeedOn: 100, queue: .global()))
    #expect(try await rejection(of: retried) as? TestError == TestError(code: lastAttempt), sourceLocation: sourceLocation)
    #expect(attempts.value == lastAttempt, sourceLocation: sourceLocation)
}

/// Hydra's `retryWhen` and `retry` with a condition.
@Suite struct HydraRetryWhenTests {
    @Test func retryWhen_retriesWhileTheConditionIsTrue() async throws {
        let attempts = LockedValue(0)
        let value = try await flakyPromise(attempts: attempts, succeedOn: 3, queue: .global())
            .retryWhen(5) { _, _ in Promise(resolved: true) }
            .settled()
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWhen_stopsWhenTheConditionIsFalse_withThatAttemptsError() async throws {
        let asked = LockedList<Int>()
        try await expectGivesUp(afterAttempt: 2) {
            $0.retryWhen(5) { remaining, _ in
                asked.append(remaining)
                return Promise(resolved: remaining > 3)
            }
        }
        #expect(asked.all == [4, 3])
    }

    @Test func retryWhen_givesUpAfterTheLastAttempt_askingWithTheAttemptsLeft() async throws {
        let asked = LockedList<Int>()
        try await expectGivesUp(afterAttempt: 3) {
            $0.retryWhen(3) { remaining, error in
                asked.append(remaining)
                return Promise(resolved: error is TestError)
            }
        }
        #expect(asked.all == [2, 1])
    }

    @Test func retryWhen_rejectedOrThrowingCondition_stopsWithTheAttemptsError() async throws {
        try await expectGivesUp(afterAttempt: 1) { $0.retryWhen(3) { _, _ in Promise<Bool>(rejected: TestError(code: 99)) } }
        try await expectGivesUp(afterAttempt: 1) { $0.retryWhen(3) { _, _ in throw TestError(code: 98) } }
    }

    @Test func retryWhen_conditionRunsOnTheGivenQueue() async throws {
        let marked = MarkedQueue("test.hydra.retryWhen")
        let queues = LockedList<String>()
        let attempts = LockedValue(0)
        let value = try await flakyPromise(attempts: attempts, succeedOn: 2, queue: .global())
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
        let value = try await flakyPromise(attempts: attempts, succeedOn: 3, queue: .global())
            .retry(3) { _, error in error is TestError }
            .settled()
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retryWithCondition_stopsWhenFalseOrThrowing() async throws {
        try await expectGivesUp(afterAttempt: 2) { $0.retry(5) { _, error in (error as? TestError)?.code != 2 } }
        try await expectGivesUp(afterAttempt: 1) { $0.retry(5) { _, _ in throw TestError(code: 7) } }
    }
}
