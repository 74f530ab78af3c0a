import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

@Suite struct PromiseRetryTests {
    @Test func retry_rerunsBodyUntilItSucceeds() async throws {
        let attempts = LockedValue(0)
        let value = try await flakyPromise(attempts: attempts, succeedOn: 3).retry(5).settled()
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retry_givesUpAfterAttempts_withLastError() async throws {
        let attempts = LockedValue(0)
        let error = try await rejection(of: flakyPromise(attempts: attempts, succeedOn: 100, queue: .global()).retry(4))
        #expect(error as? TestError == TestError(code: 4))
        #expect(attempts.value == 4)
    }

    @Test func retry_oneAttempt_doesNotRerun() async throws {
        let attempts = LockedValue(0)
        let error = try await rejection(of: flakyPromise(attempts: attempts, succeedOn: 2).retry(1))
        #expect(error as? TestError == TestError(code: 1))
        #expect(attempts.value == 1)
    }

    @Test func retry_successfulFirstAttempt_runsOnce() async throws {
        let attempts = LockedValue(0)
        #expect(try await flakyPromise(attempts: attempts, succeedOn: 1).retry(3).settled() == 1)
        #expect(attempts.value == 1)
    }

    @Test(arguments: [0, -1])
    func retry_lessThanOneAttempt_rejectsWithInvalidRetryAttempts(attempts: Int) async throws {
        let error = try await rejection(of: Promise(resolved: 1).retry(attempts))
        #expect(error?.katana == .invalidRetryAttempts(attempts))
    }

    @Test func retry_asyncOperation_rerunsOperation() async throws {
        let attempts = LockedValue(0)
        let promise = Promise<Int> {
            let attempt = attempts.increment()
            guard attempt >= 2 else { throw TestError(code: attempt) }
            return attempt * 10
        }
        #expect(try await promise.retry(3).settled() == 20)
        #expect(attempts.value == 2)
    }

    @Test func retry_ofChainedPromise_rerunsOriginatingBody() async throws {
        let attempts = LockedValue(0)
        let doubled = flakyPromise(attempts: attempts, succeedOn: 3).then { $0 * 2 }
        #expect(try await doubled.retry(3).settled() == 6)
        #expect(attempts.value == 3)
    }

    @Test func retry_ofSettledPromiseWithoutWork_keepsItsOutcome() async throws {
        let error = try await rejection(of: Promise<Int>(rejected: TestError(code: 1)).retry(3))
        #expect(error as? TestError == TestError(code: 1))
    }

    @Test func retry_ofDispatchPromise_dispatchesSideEffectAgain() async throws {
        let store = makeStore()
        let attempts = LockedValue(0)
        let value = try await store.dispatch(Flaky(attempts: attempts, succeedOn: 3)).retry(3).settled()
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retry_ofDispatchPromise_givesUpAfterAttempts() async throws {
        let store = makeStore()
        let attempts = LockedValue(0)
        let error = try await rejection(of: store.dispatch(Flaky(attempts: attempts, succeedOn: 3)).retry(2))
        #expect(error as? TestError == TestError(code: 2))
        #expect(attempts.value == 2)
    }

    @Test func retry_ofDispatchPromise_sideEffectWithoutValue_dispatchesAgain() async throws {
        struct FailsTwice: SideEffect {
            let attempts: LockedValue<Int>
            func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
                let attempt = attempts.increment()
                if attempt < 3 { throw TestError(code: attempt) }
                try context.dispatch(Increment(amount: attempt)).wait(timeout: defaultTestTimeout)
            }
        }
        let store = makeStore()
        let attempts = LockedValue(0)
        try await store.dispatch(FailsTwice(attempts: attempts)).retry(3).settled()
        #expect(attempts.value == 3)
        #expect(store.state.applied == [3])
    }
}
