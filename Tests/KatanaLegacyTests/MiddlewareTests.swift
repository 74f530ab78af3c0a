import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// A middleware that records `name: <item>` and passes the item on.
@available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
func tracing(_ name: String, into recorder: LockedList<String>) -> StoreMiddleware {
    { _, _ in
        { next in
            { item in
                recorder.append("\(name): \(String(describing: type(of: item)))")
                next(item)
            }
        }
    }
}

/// A 2.x side effect dispatched as an `ActionWithSideEffect` is still an updater; for a blocked modern
/// side effect we need a real `SideEffect`.
@available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
struct NoteSideEffect: SideEffect {
    func sideEffect(_ context: SideEffectContext<LegacyState, LegacyDependencies>) throws {
        context.dispatch(AppendUpdater(tag: "side effect ran"))
    }
}

@Suite struct MiddlewareTests {
    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func middleware_runInTheOrderGiven_mixedWithModernInterceptors() async throws {
        let recorder = LockedList<String>()
        let modern: StoreInterceptor = { _ in { next in { item in
            recorder.append("modern: \(String(describing: type(of: item)))")
            try next(item)
        } } }
        let store = makeStore(interceptors: [
            middlewareToInterceptor(tracing("first", into: recorder)),
            modern,
            middlewareToInterceptor(tracing("second", into: recorder)),
        ])
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await store.dispatch(AppendUpdater(tag: "x")).settled()
        #expect(recorder.all == [
            "first: AddAction", "modern: AddAction", "second: AddAction",
            "first: AppendUpdater", "modern: AppendUpdater", "second: AppendUpdater",
        ])
        #expect(store.state.counter == 1)
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func middleware_thatDoesNotCallNext_blocksTheItem() async throws {
        let blockAdds: StoreMiddleware = { _, _ in
            { next in
                { item in
                    if item is AddAction || item is NoteSideEffect { return }
                    next(item)
                }
            }
        }
        let store = makeStore(interceptors: [middlewareToInterceptor(blockAdds)])
        // A blocked updater resolves with the state unchanged; a blocked side effect is rejected.
        try await store.dispatch(AddAction(amount: 5)).settled()
        #expect(store.state.counter == 0)
        await #expect(throws: KatanaError.blockedByInterceptor(item: String(reflecting: NoteSideEffect.self))) {
            try await store.dispatch(NoteSideEffect()).settled()
        }
        try await store.dispatch(AppendAction(tag: "allowed")).settled()
        try await settle(store)
        #expect(store.state.log == ["allowed"])
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func middleware_thatCallsNextWithAnotherItem_replacesIt() async throws {
        let doubleAdds: StoreMiddleware = { _, _ in
            { next in
                { item in
                    if let add = item as? AddAction {
                        next(AppendAction(tag: "replaced \(add.amount)"))
                    } else {
                        next(item)
                    }
                }
            }
        }
        let store = makeStore(interceptors: [middlewareToInterceptor(doubleAdds)])
        try await store.dispatch(AddAction(amount: 3)).settled()
        #expect(store.state.counter == 0)
        #expect(store.state.log == ["replaced 3"])
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func middleware_getsTheStateAndADispatch() async throws {
        let recorder = LockedList<Int>()
        // After every AddAction, reads the counter and dispatches a log line.
        let audit: StoreMiddleware = { getState, dispatch in
            { next in
                { item in
                    next(item)
                    guard item is AddAction, let state = getState() as? LegacyState else { return }
                    recorder.append(state.counter)
                    dispatch(AppendAction(tag: "audited \(state.counter)"))
                }
            }
        }
        let store = makeStore(interceptors: [middlewareToInterceptor(audit)])
        try await store.dispatch(AddAction(amount: 2)).settled()
        try await store.waitUntil { store.state.log == ["audited 2"] }
        #expect(recorder.all == [2])
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func middleware_passesOnTheErrorOfALaterInterceptor() async throws {
        let recorder = LockedList<String>()
        let rejecting: StoreInterceptor = { _ in { next in { item in
            if item is AddAction { throw TestError(code: 7) }
            try next(item)
        } } }
        let store = makeStore(interceptors: [middlewareToInterceptor(tracing("m", into: recorder)), rejecting])
        try await expectAddRejected(with: TestError(code: 7), by: store)
    }

    @available(*, deprecated, message: "Exercises the deprecated StoreMiddleware")
    @Test func middleware_seesModernSideEffectsToo() async throws {
        let recorder = LockedList<String>()
        let store = makeStore(interceptors: [middlewareToInterceptor(tracing("m", into: recorder))])
        try await store.dispatch(NoteSideEffect()).settled()
        try await store.waitUntil { store.state.log == ["side effect ran"] }
        #expect(recorder.all.prefix(2) == ["m: NoteSideEffect", "m: AppendUpdater"])
    }
}
