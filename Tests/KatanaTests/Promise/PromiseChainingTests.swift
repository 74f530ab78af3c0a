import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

@Suite struct PromiseChainingTests {
    @Test func thenMap_transformsTheValue() async throws {
        let mapped = Promise(resolved: 20).then { $0 + 1 }.then { "\($0)!" }
        #expect(try await mapped.settled() == "21!")
    }

    @Test func thenChain_settlesWithReturnedPromise() async throws {
        let chained = Promise(resolved: 4).then { value in
            Promise<Int>(in: .global()) { resolve, _ in resolve(value * 10) }
        }
        #expect(type(of: chained) == Promise<Int>.self)
        #expect(try await chained.settled() == 40)
    }

    @Test func thenChain_rejectedInnerPromise_rejectsResult() async throws {
        let chained: Promise<Int> = Promise(resolved: 4).then { _ in Promise<Int>(rejected: TestError(code: 40)) }
        #expect(try await rejection(of: chained) as? TestError == TestError(code: 40))
    }

    @Test func thenBodyThrowing_rejectsResult() async throws {
        let mapped = Promise(resolved: 1).then { (_: Int) throws -> Int in throw TestError(code: 1) }
        #expect(try await rejection(of: mapped) as? TestError == TestError(code: 1))
        let chained = Promise(resolved: 1).then { (_: Int) throws -> Promise<Int> in throw TestError(code: 2) }
        #expect(try await rejection(of: chained) as? TestError == TestError(code: 2))
    }

    @Test func then_onRejectedPromise_skipsBodyAndPassesError() async throws {
        try await expectSkipsItsBody(onRejectionWithCode: 5) { rejected, calls in
            rejected.then { value -> Int in
                calls.increment()
                return value
            }
        }
    }

    @Test func catch_receivesErrorAndResultStaysRejected() async throws {
        let caught = LockedList<Int>()
        let promise = Promise<Int>(rejected: TestError(code: 12)).catch { error in
            caught.append((error as? TestError)?.code ?? -1)
        }
        #expect(try await rejection(of: promise) as? TestError == TestError(code: 12))
        #expect(caught.all == [12])
    }

    @Test func catch_isNotCalledOnFulfilment() async throws {
        let caught = LockedValue(0)
        let promise = Promise(resolved: 3).catch { _ in caught.increment() }
        #expect(try await promise.settled() == 3)
        #expect(caught.value == 0)
    }

    @Test func always_runsOnFulfilmentAndRejection_resultSettlesLikeSource() async throws {
        let calls = LockedValue(0)
        let fulfilled = Promise(resolved: 9).always { calls.increment() }
        #expect(try await fulfilled.settled() == 9)
        let rejected = Promise<Int>(rejected: TestError(code: 9)).always { calls.increment() }
        #expect(try await rejection(of: rejected) as? TestError == TestError(code: 9))
        #expect(calls.value == 2)
    }

    @Test func always_resultSettlesAfterBodyRan() async throws {
        let ran = LockedValue(0)
        let promise = Promise(resolved: 1).always { ran.increment() }
        try await promise.settled()
        #expect(ran.value == 1)
    }

    @Test func recover_replacesRejectionWithRecoveryValue() async throws {
        let recovered = Promise<Int>(rejected: TestError(code: 7)).recover { error in
            Promise(resolved: ((error as? TestError)?.code ?? 0) * 100)
        }
        #expect(try await recovered.settled() == 700)
    }

    @Test func recover_passesFulfilmentThroughWithoutCallingBody() async throws {
        let calls = LockedValue(0)
        let recovered = Promise(resolved: 1).recover { _ in
            calls.increment()
            return Promise(resolved: 2)
        }
        #expect(try await recovered.settled() == 1)
        #expect(calls.value == 0)
    }

    @Test func recover_throwingOrRejectingBody_rejectsWithNewError() async throws {
        let throwing = Promise<Int>(rejected: TestError(code: 1)).recover { _ in throw TestError(code: 2) }
        #expect(try await rejection(of: throwing) as? TestError == TestError(code: 2))
        let rejecting = Promise<Int>(rejected: TestError(code: 1)).recover { _ in Promise(rejected: TestError(code: 3)) }
        #expect(try await rejection(of: rejecting) as? TestError == TestError(code: 3))
    }

    @Test func callbacks_runOnTheQueueTheyAreGiven() async throws {
        let marked = MarkedQueue("test.promise.callbacks")
        let queues = LockedList<String>()
        let source = Controlled<Int>()
        let mapped = source.promise.then(in: marked.queue) { value -> Int in
            queues.append("then:\(MarkedQueue.current ?? "other")")
            return value
        }
        let chained = source.promise.then(in: marked.queue) { value -> Promise<Int> in
            queues.append("chain:\(MarkedQueue.current ?? "other")")
            return Promise(resolved: value)
        }
        let always = source.promise.always(in: marked.queue) {
            queues.append("always:\(MarkedQueue.current ?? "other")")
        }
        let failed = Promise<Int>(rejected: TestError(code: 1))
        let caught = failed.catch(in: marked.queue) { _ in
            queues.append("catch:\(MarkedQueue.current ?? "other")")
        }
        let recovered = failed.recover(in: marked.queue) { _ in
            queues.append("recover:\(MarkedQueue.current ?? "other")")
            return Promise(resolved: 0)
        }
        // Settled from another thread: the callbacks still hop to the given queue.
        DispatchQueue.global().async { source.resolve(1) }
        try await Promise.all([mapped, chained, always, recovered]).settled()
        _ = try await rejection(of: caught)
        let expected = ["then", "chain", "always", "catch", "recover"].map { "\($0):test.promise.callbacks" }
        #expect(queues.all.sorted() == expected.sorted())
    }

    @Test func then_onAlreadySettledPromise_stillRunsOnGivenQueue() async throws {
        let marked = MarkedQueue("test.promise.settled")
        let seen = Promise(resolved: 1).then(in: marked.queue) { _ in MarkedQueue.current }
        #expect(try await seen.settled() == "test.promise.settled")
    }
}
