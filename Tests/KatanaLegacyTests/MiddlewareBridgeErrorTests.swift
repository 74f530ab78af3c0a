import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// A 2.x middleware that passes every item on.
@available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
private let passThroughMiddleware: StoreMiddleware = { _, _ in { next in { item in next(item) } } }

/// An interceptor that rejects the items `rejects` picks with `error`, and passes the others on.
private func rejecting(with error: TestError, when rejects: @escaping @Sendable (any Dispatchable) -> Bool) -> StoreInterceptor {
    { _ in { next in { item in
        if rejects(item) { throw error }
        try next(item)
    } } }
}

/// A context outside any store, for running a bridged middleware by hand.
private struct DetachedContext: AnySideEffectContext {
    var anyDependencies: any SideEffectDependencyContainer {
        EmptySideEffectDependencyContainer(dispatch: { _ in Promise(resolved: ()) }, getState: { LegacyState() })
    }

    func getAnyState() -> any State {
        LegacyState()
    }

    func anyDispatch(_ dispatchable: any Dispatchable) -> Promise<any Sendable> {
        Promise(resolved: ())
    }
}

/// A side effect that runs `body` (on a side-effect worker, where waiting for another store is
/// allowed).
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
private struct RunBody: SideEffect {
    let body: @Sendable () -> Void
    func sideEffect(_ context: SideEffectContext<LegacyState, LegacyDependencies>) throws {
        body()
    }
}

/// What `middlewareToInterceptor(_:)` does with errors thrown by `next` while the middleware passes
/// the item on, now that the middleware is joined to the chain once per store.
@Suite struct MiddlewareBridgeErrorTests {
    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func aLaterInterceptorsError_rejectsTheItem_throughTenBridgedMiddleware() async throws {
        let bridged = [StoreInterceptor](repeating: middlewareToInterceptor(passThroughMiddleware), count: 5)
        let modern: StoreInterceptor = { _ in { next in { item in try next(item) } } }
        let store = makeStore(
            interceptors: bridged + [modern] + bridged + [rejecting(with: TestError(code: 21)) { $0 is AddAction }]
        )
        try await expectAddRejected(with: TestError(code: 21), by: store)
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func anItemAfterARejectedOne_succeeds() async throws {
        let store = makeStore(interceptors: [
            middlewareToInterceptor(passThroughMiddleware),
            middlewareToInterceptor(passThroughMiddleware),
            rejecting(with: TestError(code: 22)) { ($0 as? AppendAction)?.tag == "A" },
        ])
        for round in 0 ..< 3 {
            await #expect(throws: TestError(code: 22)) {
                try await store.dispatch(AppendAction(tag: "A")).settled()
            }
            try await store.dispatch(AppendAction(tag: "B\(round)")).settled()
        }
        #expect(store.state.log == ["B0", "B1", "B2"])
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func aNestedRunsError_staysInTheNestedRun() async throws {
        // Inside the outer middleware's run, on the same thread, a bridged middleware runs by hand
        // with a `next` that throws: once before the outer item is passed on, once after the outer
        // `next` has thrown. Each run must see its own error only.
        let nestedErrors = LockedList<TestError>()
        let runNested: @Sendable (Int) -> Void = { code in
            let nested = middlewareToInterceptor(passThroughMiddleware)(DetachedContext())({ _ in throw TestError(code: code) })
            do {
                try nested(AppendUpdater(tag: "nested"))
            } catch let error as TestError {
                nestedErrors.append(error)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        let outer: StoreMiddleware = { _, _ in
            { next in
                { item in
                    runNested(31)
                    next(item)
                    runNested(32)
                }
            }
        }
        let store = makeStore(interceptors: [
            middlewareToInterceptor(outer),
            rejecting(with: TestError(code: 33)) { $0 is AddAction },
        ])
        // The nested errors do not reach an outer item that passes on fine...
        try await store.dispatch(AppendAction(tag: "outer")).settled()
        #expect(store.state.log == ["outer"])
        // ...nor replace (or clear) the error of one whose `next` throws.
        await #expect(throws: TestError(code: 33)) {
            try await store.dispatch(AddAction(amount: 1)).settled()
        }
        #expect(store.state.counter == 0)
        #expect(nestedErrors.all.map(\.code) == [31, 32, 31, 32])
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func aNestedDispatchsError_doesNotLeakIntoTheOuterItem() async throws {
        // The inner store's middleware passes its item to an interceptor that rejects it; the outer
        // middleware dispatches to the inner store and waits, from a side-effect worker, so the inner
        // item is usually handled on that same thread, inside the outer run.
        let inner = makeStore(interceptors: [
            middlewareToInterceptor(passThroughMiddleware),
            rejecting(with: TestError(code: 41)) { $0 is AddAction },
        ])
        let innerOutcomes = LockedList<String>()
        let outer: StoreMiddleware = { _, _ in
            { next in
                { item in
                    if item is RunBody {
                        do {
                            try inner.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
                            innerOutcomes.append("fulfilled")
                        } catch {
                            innerOutcomes.append("\(error)")
                        }
                    }
                    next(item)
                }
            }
        }
        let store = makeStore(interceptors: [middlewareToInterceptor(outer)])
        let ran = LockedList<String>()
        try await store.dispatch(RunBody { ran.append("ran") }).settled()
        #expect(ran.all == ["ran"])
        #expect(innerOutcomes.all == ["\(TestError(code: 41))"])
        #expect(inner.state.counter == 0)
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func theMiddlewaresMiddleClosure_isCalledOncePerStore() async throws {
        let outerCalls = LockedList<Int>()
        let middleCalls = LockedList<Int>()
        let items = LockedList<String>()
        let counting: StoreMiddleware = { _, _ in
            outerCalls.append(1)
            return { next in
                middleCalls.append(1)
                return { item in
                    items.append(String(describing: type(of: item)))
                    next(item)
                }
            }
        }
        let store = makeStore(interceptors: [middlewareToInterceptor(counting)])
        for _ in 0 ..< 5 {
            try await store.dispatch(AddAction(amount: 1)).settled()
        }
        #expect(store.state.counter == 5)
        #expect(items.all.count == 5)
        #expect(outerCalls.all.count == 1)
        #expect(middleCalls.all.count == 1)
    }
}
