import Dispatch
import Testing
@testable import Katana

@Suite struct PromiseCreationTests {
    @Test func resolvedPromise_isSettledWithItsValue() throws {
        let promise = Promise(resolved: 5)
        #expect(promise.isPending == false)
        #expect(try promise.wait(timeout: .seconds(1)) == 5)
    }

    @Test func rejectedPromise_isSettledWithItsError() {
        let promise = Promise<Int>(rejected: TestError(code: 2))
        #expect(promise.isPending == false)
        #expect(rejection(of: promise) as? TestError == TestError(code: 2))
    }

    @Test func bodyWithoutQueue_runsOnCallingThreadBeforeInitReturns() throws {
        let ran = Counter()
        let promise = Promise<String> { resolve, _ in
            ran.increment()
            resolve("sync")
        }
        #expect(ran.value == 1)
        #expect(promise.isPending == false)
        #expect(try promise.wait(timeout: .seconds(1)) == "sync")
    }

    @Test func bodyOnQueue_runsOnThatQueue() throws {
        let marked = MarkedQueue("test.promise.body")
        let promise = Promise<String?>(in: marked.queue) { resolve, _ in
            resolve(MarkedQueue.current)
        }
        #expect(try promise.wait(timeout: .seconds(10)) == "test.promise.body")
    }

    @Test func bodySettlingLaterFromAnotherThread_fulfilsThePromise() throws {
        let promise = Promise<Int> { resolve, _ in
            DispatchQueue.global().async { resolve(11) }
        }
        #expect(try promise.wait(timeout: .seconds(10)) == 11)
    }

    @Test func bodyCallingReject_rejectsThePromise() {
        let promise = Promise<Int>(in: .global()) { _, reject in reject(TestError(code: 4)) }
        #expect(rejection(of: promise) as? TestError == TestError(code: 4))
    }

    @Test func throwingBody_rejectsWithThrownError() {
        let promise = Promise<Int> { _, _ in throw TestError(code: 3) }
        #expect(rejection(of: promise) as? TestError == TestError(code: 3))
        let onQueue = Promise<Int>(in: .global()) { _, _ in throw TestError(code: 8) }
        #expect(rejection(of: onQueue) as? TestError == TestError(code: 8))
    }

    @Test func asyncOperation_fulfilsWithItsResult() async throws {
        let promise = Promise<Int> {
            try await Task.sleep(for: .milliseconds(1))
            return 21
        }
        #expect(try await withTimeout { try await promise.value } == 21)
    }

    @Test func asyncOperation_throwing_rejectsWithItsError() async throws {
        let promise = Promise<Int> { throw TestError(code: 6) }
        await #expect(throws: TestError(code: 6)) {
            try await withTimeout { try await promise.value }
        }
    }
}
