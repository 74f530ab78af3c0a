import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

@Suite struct PromiseCreationTests {
    @Test func resolvedPromise_isSettledWithItsValue() async throws {
        let promise = Promise(resolved: 5)
        #expect(promise.isPending == false)
        #expect(try await promise.settled() == 5)
    }

    @Test func rejectedPromise_isSettledWithItsError() async throws {
        let promise = Promise<Int>(rejected: TestError(code: 2))
        #expect(promise.isPending == false)
        #expect(try await rejection(of: promise) as? TestError == TestError(code: 2))
    }

    @Test func bodyWithoutQueue_runsOnCallingThreadBeforeInitReturns() async throws {
        let ran = LockedValue(0)
        let promise = Promise<String> { resolve, _ in
            ran.increment()
            resolve("sync")
        }
        #expect(ran.value == 1)
        #expect(promise.isPending == false)
        #expect(try await promise.settled() == "sync")
    }

    @Test func bodyOnQueue_runsOnThatQueue() async throws {
        let marked = MarkedQueue("test.promise.body")
        let promise = Promise<String?>(in: marked.queue) { resolve, _ in
            resolve(MarkedQueue.current)
        }
        #expect(try await promise.settled() == "test.promise.body")
    }

    @Test func bodySettlingLaterFromAnotherThread_fulfilsThePromise() async throws {
        let promise = Promise<Int> { resolve, _ in
            DispatchQueue.global().async { resolve(11) }
        }
        #expect(try await promise.settled() == 11)
    }

    @Test func bodyCallingReject_rejectsThePromise() async throws {
        let promise = Promise<Int>(in: .global()) { _, reject in reject(TestError(code: 4)) }
        #expect(try await rejection(of: promise) as? TestError == TestError(code: 4))
    }

    @Test func throwingBody_rejectsWithThrownError() async throws {
        let promise = Promise<Int> { _, _ in throw TestError(code: 3) }
        #expect(try await rejection(of: promise) as? TestError == TestError(code: 3))
        let onQueue = Promise<Int>(in: .global()) { _, _ in throw TestError(code: 8) }
        #expect(try await rejection(of: onQueue) as? TestError == TestError(code: 8))
    }

    @Test func asyncOperation_fulfilsWithItsResult() async throws {
        let promise = Promise<Int> {
            try await Task.sleep(for: .milliseconds(1))
            return 21
        }
        #expect(try await promise.settled() == 21)
    }

    @Test func asyncOperation_throwing_rejectsWithItsError() async throws {
        let promise = Promise<Int> { throw TestError(code: 6) }
        await #expect(throws: TestError(code: 6)) {
            try await promise.settled()
        }
    }
}
