import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// A promise derived from a dispatch promise keeps the store the dispatch went to (as its engine's
/// number, never a reference), so Katana 3.x chains such as
/// `store.dispatch(A()).thenDispatch(B()).thenDispatch(C())` dispatch every step to that store.
@Suite struct DerivedPromiseStoreTests {
    /// A store whose interceptor records, in order, the amount of every `Increment` it is given.
    private func recordingStore(_ seen: LockedList<Int>) -> TestStore {
        makeStore(interceptors: [interceptor { item, next in
            if let increment = item as? Increment {
                seen.append(increment.amount)
            }
            try next(item)
        }])
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_threeStepChain_handlesEachItemOnTheStoreInOrder() async throws {
        let seen = LockedList<Int>()
        let store = recordingStore(seen)
        try await store.dispatch(Increment(amount: 1))
            .thenDispatch(Increment(amount: 2))
            .thenDispatch(Increment(amount: 3))
            .settled()
        #expect(seen.all == [1, 2, 3])
        #expect(store.state.applied == [1, 2, 3])
    }

    /// Async and awaiting without blocking: the chain ends in an async side effect, whose task
    /// needs a thread of the cooperative pool, which blocking waits in parallel tests could hold.
    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_chainOfEveryKind_passesValuesAlong() async throws {
        let store = makeStore()
        let chain = store.dispatch(Increment(amount: 2))
            .thenDispatch(ReadCounter())
            .thenDispatch { counter in Increment(amount: counter * 10) }
            .thenDispatch(AsyncAdd(amount: 5))
        let counter = try await chain.settled()
        #expect(counter == 27)
        #expect(store.state.applied == [2, 20, 5])
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_afterThen_dispatchesToTheSameStore() async throws {
        let store = makeStore()
        let log = LockedList<String>()
        try await store.dispatch(Increment(amount: 1)).then { _ in
            log.append("then")
        }.thenDispatch(Increment(amount: 2)).settled()
        #expect(log.all == ["then"])
        #expect(store.state.applied == [1, 2])
    }

    /// Every operator that makes a new promise from one promise passes the store on.
    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func everyOperatorOnADispatchPromise_keepsItsStore() async throws {
        let operators: [(name: String, apply: @Sendable (Promise<Int>) -> Promise<Int>)] = [
            ("then (value)", { $0.then { $0 + 1 } }),
            ("then (promise)", { $0.then { Promise(resolved: $0) } }),
            ("then (no result)", { $0.then { (_: Int) in } }),
            ("catch", { $0.catch { _ in } }),
            ("always", { $0.always {} }),
            ("recover", { $0.recover { _ in Promise(resolved: 0) } }),
            ("validate", { $0.validate { _ in true } }),
            ("pass", { $0.pass { _ in } }),
            ("timeout", { $0.timeout(timeout: 600) }),
            ("defer", { $0.defer(0) }),
            ("retry", { $0.retry(2) }),
            ("retryWhen", { $0.retryWhen(2) }),
            ("void", { $0.void.then { 0 } }),
            ("zip of three, one store", { Promise<Void>.zip(a: $0, b: $0, c: $0).then { $0.0 } }),
        ]
        let store = makeStore()
        for (index, entry) in operators.enumerated() {
            let amount = index + 1
            let derived = entry.apply(store.dispatch(Constant(value: 1)))
            try await derived.thenDispatch(Increment(amount: amount)).settled()
            #expect(store.state.applied.last == amount, "\(entry.name)")
        }
        #expect(store.state.applied == Array(1...operators.count))
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_afterTheStoreIsReleased_rejectsWithStoreDeallocated() async throws {
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let first = try #require(store?.dispatch(Increment(amount: 1)))
        try await first.settled()
        let gate = Controlled<Void>()
        let chain = first.then { _ in gate.promise }.thenDispatch(Increment(amount: 2))
        store = nil
        // The chain holds the store's number only: it does not keep the store alive (the store goes
        // once the thread that handled `first` lets go of it, just after `first` settled).
        try await poll("the store to be released") { weakStore == nil }
        gate.resolve(())
        #expect(try await rejection(of: chain)?.katana == .storeDeallocated(item: "KatanaTests.Increment"))
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_chainedFromAPromiseWithoutStore_rejectsWithoutStore() async throws {
        let chained = Promise(resolved: 1).then { $0 + 1 }.recover { _ in Promise(resolved: 0) }
        let error = try await rejection(of: chained.thenDispatch(Increment(amount: 1)))
        #expect(error?.katana == .thenDispatchWithoutStore(item: "KatanaTests.Increment"))

        let made = Promise<Int> { resolve, _ in resolve(1) }.retry(2).timeout(timeout: 600)
        let madeError = try await rejection(of: made.thenDispatch(Increment(amount: 1)))
        #expect(madeError?.katana == .thenDispatchWithoutStore(item: "KatanaTests.Increment"))
    }

    /// `all`, `any` and `zip` keep the store when every promise they combine comes from that one
    /// store; over promises of several stores (or none), and for `map` and `reduce`, whose promises
    /// are made later, there is no store.
    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func combinators_keepTheStoreOnlyWhenEveryPromiseSharesIt() async throws {
        let store = makeStore()
        let other = makeStore()
        try await Promise.all([store.dispatch(Constant(value: 1)), store.dispatch(Constant(value: 2))])
            .thenDispatch(Increment(amount: 1)).settled()
        try await any(store.dispatch(Constant(value: 1)), store.dispatch(Constant(value: 2)))
            .thenDispatch(Increment(amount: 2)).settled()
        try await Promise<Void>.zip(store.dispatch(Constant(value: 1)), store.dispatch(Increment(amount: 3)))
            .thenDispatch(Increment(amount: 4)).settled()
        #expect(store.state.applied == [1, 2, 3, 4])

        let withoutStore: [(name: String, promise: Promise<Void>)] = [
            ("all of two stores", Promise.all([store.dispatch(Constant(value: 1)), other.dispatch(Constant(value: 2))]).void),
            ("all with a plain promise", Promise.all([store.dispatch(Constant(value: 1)), Promise(resolved: 2)]).void),
            ("all of none", Promise<Int>.all([]).void),
            ("any of two stores", any(store.dispatch(Constant(value: 1)), other.dispatch(Constant(value: 2))).void),
            ("zip of two stores", Promise<Void>.zip(store.dispatch(Constant(value: 1)), other.dispatch(Constant(value: 2))).void),
            ("map", map(as: .series, [1]) { store.dispatch(Constant(value: $0)) }.void),
            ("reduce", reduce([1], 0) { _, value in store.dispatch(Constant(value: value)) }.void),
        ]
        for entry in withoutStore {
            let error = try await rejection(of: entry.promise.thenDispatch(Increment(amount: 9)))
            #expect(error?.katana == .thenDispatchWithoutStore(item: "KatanaTests.Increment"), "\(entry.name)")
        }
        #expect(store.state.applied == [1, 2, 3, 4])
        #expect(other.state.applied == [])
    }
}
