import Dispatch
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

@Suite struct LegacyStoreTests {
    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyInitialiser_installsTheMiddlewareInOrder_andBuildsThe2xDependencies() async throws {
        let recorder = LockedList<String>()
        let store = Store<LegacyState, LegacyDependencies>(
            middleware: [tracing("one", into: recorder), tracing("two", into: recorder)],
            dependencies: LegacyDependencies.self,
            configuration: testConfiguration()
        )
        #expect(store.isReady)
        try await store.dispatch(AddAction(amount: 2)).settled()
        #expect(recorder.all == ["one: AddAction", "two: AddAction"])
        #expect(store.state.counter == 2)
        #expect(store.dependencies.backend.items == ["alpha", "beta"])
        // The container's 2.x dispatch goes through the middleware too.
        store.dependencies.dispatch(AppendAction(tag: "from dependencies"))
        try await store.waitUntil { store.state.log == ["from dependencies"] }
        #expect(recorder.all.suffix(2) == ["one: AppendAction", "two: AppendAction"])
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyInitialiser_acceptsAStateInitializer() async throws {
        let store = Store<LegacyState, LegacyDependencies>(
            middleware: [],
            dependencies: LegacyDependencies.self,
            stateInitializer: { LegacyState(counter: 41) },
            configuration: testConfiguration()
        )
        try await store.dispatch(AddAction(amount: 1)).settled()
        #expect(store.state.counter == 42)
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyInitialiser_worksWithTheEmptyContainer() async throws {
        let store = Store<LegacyState, EmptySideEffectDependencyContainer>(
            middleware: [], dependencies: EmptySideEffectDependencyContainer.self
        )
        try await store.dispatch(AddAction(amount: 3)).settled()
        #expect(store.state.counter == 3)
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func zeroArgumentListener_isCalledAfterEveryUpdate_untilRemoved() async throws {
        let store = makeStore()
        let seen = LockedList<Int>()
        let unsubscribe = store.addListener { seen.append(store.state.counter) }
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await seen.waitForCount(1)
        #expect(seen.count == 1)
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await seen.waitForCount(2)
        #expect(seen.count == 2)
        unsubscribe()
        try await store.dispatch(AddAction(amount: 1)).settled()
        // A listener call already scheduled could still land; wait for the listener queue to be idle.
        let probe = LockedList<Int>()
        store.addListener { probe.append(1) }
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await probe.waitForCount(1)
        #expect(probe.count == 1)
        #expect(seen.all.count == 2)
        #expect(seen.all.last ?? 0 >= 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyContainer_providesTheCoreInitialiser() throws {
        let dispatched = LockedList<String>()
        let container = LegacyDependencies(
            dispatch: { item in
                dispatched.append(item.debugDescription)
                return Promise(resolved: ())
            },
            getState: { LegacyState(counter: 8) }
        )
        container.dispatch(AppendAction(tag: "t"))
        #expect(dispatched.all == [String(reflecting: AppendAction.self)])
        #expect((container.getState() as? LegacyState)?.counter == 8)
    }
}
