import Dispatch
import Testing
@testable import Katana

@Suite struct PromiseChainingTests {
    @Test func thenMap_transformsTheValue() throws {
        let mapped = Promise(resolved: 20).then { $0 + 1 }.then { "\($0)!" }
        #expect(try mapped.wait(timeout: .seconds(10)) == "21!")
    }

    @Test func thenChain_settlesWithReturnedPromise() throws {
        let chained = Promise(resolved: 4).then { value in
            Promise<Int>(in: .global()) { resolve, _ in resolve(value * 10) }
        }
        #expect(type(of: chained) == Promise<Int>.self)
        #expect(try chained.wait(timeout: .seconds(10)) == 40)
    }

    @Test func thenChain_rejectedInnerPromise_rejectsResult() {
        let chained: Promise<Int> = Promise(resolved: 4).then { _ in Promise<Int>(rejected: TestError(code: 40)) }
        #expect(rejection(of: chained) as? TestError == TestError(code: 40))
    }

    @Test func thenBodyThrowing_rejectsResult() {
        let mapped = Promise(resolved: 1).then { (_: Int) throws -> Int in throw TestError(code: 1) }
        #expect(rejection(of: mapped) as? TestError == TestError(code: 1))
        let chained = Promise(resolved: 1).then { (_: Int) throws -> Promise<Int> in throw TestError(code: 2) }
        #expect(rejection(of: chained) as? TestError == TestError(code: 2))
    }

    @Test func then_onRejectedPromise_skipsBodyAndPassesError() {
        let calls = Counter()
        let mapped = Promise<Int>(rejected: TestError(code: 5)).then { value -> Int in
            calls.increment()
            return value
        }
        #expect(rejection(of: mapped) as? TestError == TestError(code: 5))
        #expect(calls.value == 0)
    }

    @Test func catch_receivesErrorAndResultStaysRejected() {
        let caught = Recorder<Int>()
        let promise = Promise<Int>(rejected: TestError(code: 12)).catch { error in
            caught.append((error as? TestError)?.code ?? -1)
        }
        #expect(rejection(of: promise) as? TestError == TestError(code: 12))
        #expect(caught.values == [12])
    }

    @Test func catch_isNotCalledOnFulfilment() throws {
        let caught = Counter()
        let promise = Promise(resolved: 3).catch { _ in caught.increment() }
        #expect(try promise.wait(timeout: .seconds(10)) == 3)
        #expect(caught.value == 0)
    }

    @Test func always_runsOnFulfilmentAndRejection_resultSettlesLikeSource() throws {
        let calls = Counter()
        let fulfilled = Promise(resolved: 9).always { calls.increment() }
        #expect(try fulfilled.wait(timeout: .seconds(10)) == 9)
        let rejected = Promise<Int>(rejected: TestError(code: 9)).always { calls.increment() }
        #expect(rejection(of: rejected) as? TestError == TestError(code: 9))
        #expect(calls.value == 2)
    }

    @Test func always_resultSettlesAfterBodyRan() throws {
        let ran = Counter()
        let promise = Promise(resolved: 1).always { ran.increment() }
        try promise.wait(timeout: .seconds(10))
        #expect(ran.value == 1)
    }

    @Test func recover_replacesRejectionWithRecoveryValue() throws {
        let recovered = Promise<Int>(rejected: TestError(code: 7)).recover { error in
            Promise(resolved: ((error as? TestError)?.code ?? 0) * 100)
        }
        #expect(try recovered.wait(timeout: .seconds(10)) == 700)
    }

    @Test func recover_passesFulfilmentThroughWithoutCallingBody() throws {
        let calls = Counter()
        let recovered = Promise(resolved: 1).recover { _ in
            calls.increment()
            return Promise(resolved: 2)
        }
        #expect(try recovered.wait(timeout: .seconds(10)) == 1)
        #expect(calls.value == 0)
    }

    @Test func recover_throwingOrRejectingBody_rejectsWithNewError() {
        let throwing = Promise<Int>(rejected: TestError(code: 1)).recover { _ in throw TestError(code: 2) }
        #expect(rejection(of: throwing) as? TestError == TestError(code: 2))
        let rejecting = Promise<Int>(rejected: TestError(code: 1)).recover { _ in Promise(rejected: TestError(code: 3)) }
        #expect(rejection(of: rejecting) as? TestError == TestError(code: 3))
    }

    @Test func callbacks_runOnTheQueueTheyAreGiven() throws {
        let marked = MarkedQueue("test.promise.callbacks")
        let queues = Recorder<String>()
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
        try Promise.all([mapped, chained, always, recovered]).wait(timeout: .seconds(10))
        _ = rejection(of: caught)
        let expected = ["then", "chain", "always", "catch", "recover"].map { "\($0):test.promise.callbacks" }
        #expect(queues.values.sorted() == expected.sorted())
    }

    @Test func then_onAlreadySettledPromise_stillRunsOnGivenQueue() throws {
        let marked = MarkedQueue("test.promise.settled")
        let seen = Promise(resolved: 1).then(in: marked.queue) { _ in MarkedQueue.current }
        #expect(try seen.wait(timeout: .seconds(10)) == "test.promise.settled")
    }
}
