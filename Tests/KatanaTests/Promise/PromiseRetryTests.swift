import Dispatch
import Testing
@testable import Katana

@Suite struct PromiseRetryTests {
    /// A body-based promise whose body fails (code = attempt number) until attempt `succeedOn`.
    private func flakyPromise(attempts: Counter, succeedOn: Int, queue: DispatchQueue? = nil) -> Promise<Int> {
        Promise(in: queue) { resolve, reject in
            let attempt = attempts.increment()
            if attempt >= succeedOn {
                resolve(attempt)
            } else {
                reject(TestError(code: attempt))
            }
        }
    }

    @Test func retry_rerunsBodyUntilItSucceeds() throws {
        let attempts = Counter()
        let value = try flakyPromise(attempts: attempts, succeedOn: 3).retry(5).wait(timeout: .seconds(10))
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retry_givesUpAfterAttempts_withLastError() {
        let attempts = Counter()
        let error = rejection(of: flakyPromise(attempts: attempts, succeedOn: 100, queue: .global()).retry(4))
        #expect(error as? TestError == TestError(code: 4))
        #expect(attempts.value == 4)
    }

    @Test func retry_oneAttempt_doesNotRerun() {
        let attempts = Counter()
        let error = rejection(of: flakyPromise(attempts: attempts, succeedOn: 2).retry(1))
        #expect(error as? TestError == TestError(code: 1))
        #expect(attempts.value == 1)
    }

    @Test func retry_successfulFirstAttempt_runsOnce() throws {
        let attempts = Counter()
        #expect(try flakyPromise(attempts: attempts, succeedOn: 1).retry(3).wait(timeout: .seconds(10)) == 1)
        #expect(attempts.value == 1)
    }

    @Test(arguments: [0, -1])
    func retry_lessThanOneAttempt_rejectsWithInvalidRetryAttempts(attempts: Int) {
        let error = rejection(of: Promise(resolved: 1).retry(attempts))
        #expect(error?.katana == .invalidRetryAttempts(attempts))
    }

    @Test func retry_asyncOperation_rerunsOperation() async throws {
        let attempts = Counter()
        let promise = Promise<Int> {
            let attempt = attempts.increment()
            guard attempt >= 2 else { throw TestError(code: attempt) }
            return attempt * 10
        }
        #expect(try await withTimeout { try await promise.retry(3).value } == 20)
        #expect(attempts.value == 2)
    }

    @Test func retry_ofChainedPromise_rerunsOriginatingBody() throws {
        let attempts = Counter()
        let doubled = flakyPromise(attempts: attempts, succeedOn: 3).then { $0 * 2 }
        #expect(try doubled.retry(3).wait(timeout: .seconds(10)) == 6)
        #expect(attempts.value == 3)
    }

    @Test func retry_ofSettledPromiseWithoutWork_keepsItsOutcome() {
        let error = rejection(of: Promise<Int>(rejected: TestError(code: 1)).retry(3))
        #expect(error as? TestError == TestError(code: 1))
    }

    @Test func retry_ofDispatchPromise_dispatchesSideEffectAgain() throws {
        let store = makeStore()
        let attempts = Counter()
        let value = try store.dispatch(Flaky(attempts: attempts, succeedOn: 3)).retry(3).wait(timeout: .seconds(10))
        #expect(value == 3)
        #expect(attempts.value == 3)
    }

    @Test func retry_ofDispatchPromise_givesUpAfterAttempts() {
        let store = makeStore()
        let attempts = Counter()
        let error = rejection(of: store.dispatch(Flaky(attempts: attempts, succeedOn: 3)).retry(2))
        #expect(error as? TestError == TestError(code: 2))
        #expect(attempts.value == 2)
    }

    @Test func retry_ofDispatchPromise_sideEffectWithoutValue_dispatchesAgain() throws {
        struct FailsTwice: SideEffect {
            let attempts: Counter
            func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
                let attempt = attempts.increment()
                if attempt < 3 { throw TestError(code: attempt) }
                try context.dispatch(Increment(amount: attempt)).wait(timeout: .seconds(10))
            }
        }
        let store = makeStore()
        let attempts = Counter()
        try store.dispatch(FailsTwice(attempts: attempts)).retry(3).wait(timeout: .seconds(10))
        #expect(attempts.value == 3)
        #expect(store.state.applied == [3])
    }
}
