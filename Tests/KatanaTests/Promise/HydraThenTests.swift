import Dispatch
import Testing
@testable import Katana

/// Hydra's `then` with a body that returns nothing, `void`, `pass` and `validate`.
@Suite struct HydraThenTests {
    // MARK: - then with a Void body

    @Test func thenVoidBody_multiLine_passesTheValueToTheNextThen() throws {
        let seen = Recorder<Int>()
        let chained = Promise(resolved: 7).then { value in
            seen.append(value)
            seen.append(value * 2)
        }.then { value in
            value + 1
        }
        #expect(try chained.wait(timeout: defaultTestTimeout) == 8)
        #expect(seen.values == [7, 14])
    }

    @Test func thenVoidBody_resultKeepsTheValueType() throws {
        let seen = Recorder<String>()
        let passed = Promise(resolved: "katana").then { value in
            let shouted = value.uppercased()
            seen.append(shouted)
        }
        #expect(type(of: passed) == Promise<String>.self)
        #expect(try passed.wait(timeout: defaultTestTimeout) == "katana")
        #expect(seen.values == ["KATANA"])
    }

    @Test func thenSingleExpression_stillMapsTheValue() throws {
        let mapped = Promise(resolved: 1).then { $0 + 1 }
        #expect(type(of: mapped) == Promise<Int>.self)
        #expect(try mapped.wait(timeout: defaultTestTimeout) == 2)
        let described = Promise(resolved: 2).then { "\($0)" }
        #expect(try described.wait(timeout: defaultTestTimeout) == "2")
    }

    @Test func thenSingleExpressionReturningAPromise_stillChains() throws {
        let inner = Controlled<Int>()
        let chained = Promise(resolved: 1).then { _ in inner.promise }
        #expect(type(of: chained) == Promise<Int>.self)
        DispatchQueue.global().async { inner.resolve(5) }
        #expect(try chained.wait(timeout: defaultTestTimeout) == 5)

        let store = makeStore()
        let next = store.dispatch(Increment(amount: 1)).then { _ in store.dispatch(Increment(amount: 2)) }
        try next.wait(timeout: defaultTestTimeout)
        // Fulfilled only once the second dispatch has been handled: the body's promise was chained.
        #expect(store.state.applied == [1, 2])
    }

    @Test func thenVoidBody_throwing_rejectsTheResult() {
        let seen = Recorder<Int>()
        let failed = Promise(resolved: 3).then { (value: Int) throws in
            seen.append(value)
            throw TestError(code: value)
        }
        #expect(rejection(of: failed, timeout: defaultTestTimeout) as? TestError == TestError(code: 3))
        #expect(seen.values == [3])
    }

    @Test func thenVoidBody_onRejectedPromise_skipsBodyAndPassesTheError() {
        let calls = Counter()
        let failed = Promise<Int>(rejected: TestError(code: 4)).then { _ in
            calls.increment()
            calls.increment()
        }
        #expect(rejection(of: failed, timeout: defaultTestTimeout) as? TestError == TestError(code: 4))
        #expect(calls.value == 0)
    }

    @Test func thenVoidBody_runsOnTheQueueItIsGiven() throws {
        let marked = MarkedQueue("test.hydra.then")
        let queues = Recorder<String>()
        let passed = Promise(resolved: 1).then(in: marked.queue) { value in
            queues.append(MarkedQueue.current ?? "other")
            queues.append("value \(value)")
        }
        #expect(try passed.wait(timeout: defaultTestTimeout) == 1)
        #expect(queues.values == ["test.hydra.then", "value 1"])
    }

    // MARK: - void

    @Test func void_fulfilsWithVoidWhenTheSourceIsFulfilled() throws {
        let done: Promise<Void> = Promise(resolved: 42).void
        try done.wait(timeout: defaultTestTimeout)
    }

    @Test func void_passesTheRejection() {
        let done = Promise<Int>(rejected: TestError(code: 8)).void
        #expect(rejection(of: done, timeout: defaultTestTimeout) as? TestError == TestError(code: 8))
    }

    // MARK: - pass

    @Test func pass_waitsForTheStepAndPassesTheOriginalValue() throws {
        let marked = MarkedQueue("test.hydra.pass")
        let step = Recorder<String>()
        let passed = Promise(resolved: 5).pass(in: marked.queue) { value -> Promise<String> in
            step.append(MarkedQueue.current ?? "other")
            return Promise<String>(in: .global()) { resolve, _ in
                step.append("step \(value)")
                resolve("ignored")
            }
        }
        #expect(try passed.wait(timeout: defaultTestTimeout) == 5)
        #expect(step.values == ["test.hydra.pass", "step 5"])
    }

    @Test func pass_rejectedStep_rejectsTheResult() {
        let passed = Promise(resolved: 5).pass { _ in Promise<Int>(rejected: TestError(code: 50)) }
        #expect(rejection(of: passed, timeout: defaultTestTimeout) as? TestError == TestError(code: 50))
    }

    @Test func pass_voidBody_runsAndPassesTheValue() throws {
        let seen = Recorder<Int>()
        let passed = Promise(resolved: 6).pass { value in
            seen.append(value)
            seen.append(value + 1)
        }
        #expect(try passed.wait(timeout: defaultTestTimeout) == 6)
        #expect(seen.values == [6, 7])
    }

    @Test func pass_throwingVoidBody_rejectsTheResult() {
        let passed = Promise(resolved: 6).pass { (value: Int) throws in
            throw TestError(code: value)
        }
        #expect(rejection(of: passed, timeout: defaultTestTimeout) as? TestError == TestError(code: 6))
    }

    @Test func pass_onRejectedPromise_skipsBody() {
        let calls = Counter()
        let passed = Promise<Int>(rejected: TestError(code: 1)).pass { _ -> Promise<Void> in
            calls.increment()
            return Promise(resolved: ())
        }
        #expect(rejection(of: passed, timeout: defaultTestTimeout) as? TestError == TestError(code: 1))
        #expect(calls.value == 0)
    }

    // MARK: - validate

    @Test func validate_truePredicate_passesTheValue_onTheGivenQueue() throws {
        let marked = MarkedQueue("test.hydra.validate")
        let queues = Recorder<String>()
        let valid = Promise(resolved: 200).validate(in: marked.queue) { status in
            queues.append(MarkedQueue.current ?? "other")
            return status == 200
        }
        #expect(try valid.wait(timeout: defaultTestTimeout) == 200)
        #expect(queues.values == ["test.hydra.validate"])
    }

    @Test func validate_falsePredicate_rejectsWithValidationFailed() {
        let invalid = Promise(resolved: 404).validate { $0 == 200 }
        let error = rejection(of: invalid, timeout: defaultTestTimeout)
        guard case .validationFailed(let valueType)? = error?.katana else {
            Issue.record("expected validationFailed, got \(String(describing: error))")
            return
        }
        #expect(valueType.contains("Int"))
    }

    @Test func validate_throwingPredicate_rejectsWithItsError() {
        let invalid = Promise(resolved: 1).validate { _ in throw TestError(code: 11) }
        #expect(rejection(of: invalid, timeout: defaultTestTimeout) as? TestError == TestError(code: 11))
    }
}
