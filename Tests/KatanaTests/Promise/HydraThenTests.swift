import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Hydra's `then` with a body that returns nothing, `void`, `pass` and `validate`.
@Suite struct HydraThenTests {
    // MARK: - then with a Void body

    @Test func thenVoidBody_multiLine_passesTheValueToTheNextThen() async throws {
        let seen = LockedList<Int>()
        let chained = Promise(resolved: 7).then { value in
            seen.append(value)
            seen.append(value * 2)
        }.then { value in
            value + 1
        }
        #expect(try await chained.settled() == 8)
        #expect(seen.all == [7, 14])
    }

    @Test func thenVoidBody_resultKeepsTheValueType() async throws {
        let seen = LockedList<String>()
        let passed = Promise(resolved: "katana").then { value in
            let shouted = value.uppercased()
            seen.append(shouted)
        }
        #expect(type(of: passed) == Promise<String>.self)
        #expect(try await passed.settled() == "katana")
        #expect(seen.all == ["KATANA"])
    }

    @Test func thenSingleExpression_stillMapsTheValue() async throws {
        let mapped = Promise(resolved: 1).then { $0 + 1 }
        #expect(type(of: mapped) == Promise<Int>.self)
        #expect(try await mapped.settled() == 2)
        let described = Promise(resolved: 2).then { "\($0)" }
        #expect(try await described.settled() == "2")
    }

    @Test func thenSingleExpressionReturningAPromise_stillChains() async throws {
        let inner = Controlled<Int>()
        let chained = Promise(resolved: 1).then { _ in inner.promise }
        #expect(type(of: chained) == Promise<Int>.self)
        DispatchQueue.global().async { inner.resolve(5) }
        #expect(try await chained.settled() == 5)

        let store = makeStore()
        let next = store.dispatch(Increment(amount: 1)).then { _ in store.dispatch(Increment(amount: 2)) }
        try await next.settled()
        // Fulfilled only once the second dispatch has been handled: the body's promise was chained.
        #expect(store.state.applied == [1, 2])
    }

    @Test func thenVoidBody_throwing_rejectsTheResult() async throws {
        let seen = LockedList<Int>()
        let failed = Promise(resolved: 3).then { (value: Int) throws in
            seen.append(value)
            throw TestError(code: value)
        }
        #expect(try await rejection(of: failed) as? TestError == TestError(code: 3))
        #expect(seen.all == [3])
    }

    @Test func thenVoidBody_onRejectedPromise_skipsBodyAndPassesTheError() async throws {
        try await expectSkipsItsBody(onRejectionWithCode: 4) { rejected, calls in
            rejected.then { _ in
                calls.increment()
                calls.increment()
            }
        }
    }

    @Test func thenVoidBody_runsOnTheQueueItIsGiven() async throws {
        let marked = MarkedQueue("test.hydra.then")
        let queues = LockedList<String>()
        let passed = Promise(resolved: 1).then(in: marked.queue) { value in
            queues.append(MarkedQueue.current ?? "other")
            queues.append("value \(value)")
        }
        #expect(try await passed.settled() == 1)
        #expect(queues.all == ["test.hydra.then", "value 1"])
    }

    // MARK: - void

    @Test func void_fulfilsWithVoidWhenTheSourceIsFulfilled() async throws {
        let done: Promise<Void> = Promise(resolved: 42).void
        try await done.settled()
    }

    @Test func void_passesTheRejection() async throws {
        let done = Promise<Int>(rejected: TestError(code: 8)).void
        #expect(try await rejection(of: done) as? TestError == TestError(code: 8))
    }

    // MARK: - pass

    @Test func pass_waitsForTheStepAndPassesTheOriginalValue() async throws {
        let marked = MarkedQueue("test.hydra.pass")
        let step = LockedList<String>()
        let passed = Promise(resolved: 5).pass(in: marked.queue) { value -> Promise<String> in
            step.append(MarkedQueue.current ?? "other")
            return Promise<String>(in: .global()) { resolve, _ in
                step.append("step \(value)")
                resolve("ignored")
            }
        }
        #expect(try await passed.settled() == 5)
        #expect(step.all == ["test.hydra.pass", "step 5"])
    }

    @Test func pass_rejectedStep_rejectsTheResult() async throws {
        let passed = Promise(resolved: 5).pass { _ in Promise<Int>(rejected: TestError(code: 50)) }
        #expect(try await rejection(of: passed) as? TestError == TestError(code: 50))
    }

    @Test func pass_voidBody_runsAndPassesTheValue() async throws {
        let seen = LockedList<Int>()
        let passed = Promise(resolved: 6).pass { value in
            seen.append(value)
            seen.append(value + 1)
        }
        #expect(try await passed.settled() == 6)
        #expect(seen.all == [6, 7])
    }

    @Test func pass_throwingVoidBody_rejectsTheResult() async throws {
        let passed = Promise(resolved: 6).pass { (value: Int) throws in
            throw TestError(code: value)
        }
        #expect(try await rejection(of: passed) as? TestError == TestError(code: 6))
    }

    @Test func pass_onRejectedPromise_skipsBody() async throws {
        try await expectSkipsItsBody(onRejectionWithCode: 1) { rejected, calls in
            rejected.pass { _ -> Promise<Void> in
                calls.increment()
                return Promise(resolved: ())
            }
        }
    }

    // MARK: - validate

    @Test func validate_truePredicate_passesTheValue_onTheGivenQueue() async throws {
        let marked = MarkedQueue("test.hydra.validate")
        let queues = LockedList<String>()
        let valid = Promise(resolved: 200).validate(in: marked.queue) { status in
            queues.append(MarkedQueue.current ?? "other")
            return status == 200
        }
        #expect(try await valid.settled() == 200)
        #expect(queues.all == ["test.hydra.validate"])
    }

    @Test func validate_falsePredicate_rejectsWithValidationFailed() async throws {
        let invalid = Promise(resolved: 404).validate { $0 == 200 }
        let error = try await rejection(of: invalid)
        guard case .validationFailed(let valueType)? = error?.katana else {
            Issue.record("expected validationFailed, got \(String(describing: error))")
            return
        }
        #expect(valueType.contains("Int"))
    }

    @Test func validate_throwingPredicate_rejectsWithItsError() async throws {
        let invalid = Promise(resolved: 1).validate { _ in throw TestError(code: 11) }
        #expect(try await rejection(of: invalid) as? TestError == TestError(code: 11))
    }
}
