import Dispatch
import Katana
import KatanaLegacy
import Testing

@Suite struct LegacyStoreTests {
    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyInitialiser_installsTheMiddlewareInOrder_andBuildsThe2xDependencies() throws {
        let recorder = Recorder<String>()
        let store = Store<LegacyState, LegacyDependencies>(
            middleware: [tracing("one", into: recorder), tracing("two", into: recorder)],
            dependencies: LegacyDependencies.self,
            configuration: testConfiguration()
        )
        #expect(store.isReady)
        try store.dispatch(AddAction(amount: 2)).wait(timeout: .seconds(10))
        #expect(recorder.values == ["one: AddAction", "two: AddAction"])
        #expect(store.state.counter == 2)
        #expect(store.dependencies.backend.items == ["alpha", "beta"])
        // The container's 2.x dispatch goes through the middleware too.
        store.dependencies.dispatch(AppendAction(tag: "from dependencies"))
        #expect(eventually { store.state.log == ["from dependencies"] })
        #expect(recorder.values.suffix(2) == ["one: AppendAction", "two: AppendAction"])
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyInitialiser_acceptsAStateInitializer() throws {
        let store = Store<LegacyState, LegacyDependencies>(
            middleware: [],
            dependencies: LegacyDependencies.self,
            stateInitializer: { LegacyState(counter: 41) },
            configuration: testConfiguration()
        )
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 42)
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyInitialiser_worksWithTheEmptyContainer() throws {
        let store = Store<LegacyState, EmptySideEffectDependencyContainer>(
            middleware: [], dependencies: EmptySideEffectDependencyContainer.self
        )
        try store.dispatch(AddAction(amount: 3)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 3)
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func zeroArgumentListener_isCalledAfterEveryUpdate_untilRemoved() throws {
        let store = makeStore()
        let seen = Recorder<Int>()
        let unsubscribe = store.addListener { seen.append(store.state.counter) }
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        #expect(eventually { seen.values.count == 1 })
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        #expect(eventually { seen.values.count == 2 })
        unsubscribe()
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        // A listener call already scheduled could still land; wait for the listener queue to be idle.
        let probe = Recorder<Int>()
        store.addListener { probe.append(1) }
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        #expect(eventually { probe.values.count == 1 })
        #expect(seen.values.count == 2)
        #expect(seen.values.last ?? 0 >= 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated 2.x store API")
    @Test func legacyContainer_providesTheCoreInitialiser() throws {
        let dispatched = Recorder<String>()
        let container = LegacyDependencies(
            dispatch: { item in
                dispatched.append(item.debugDescription)
                return Promise(resolved: ())
            },
            getState: { LegacyState(counter: 8) }
        )
        container.dispatch(AppendAction(tag: "t"))
        #expect(dispatched.values == [String(reflecting: AppendAction.self)])
        #expect((container.getState() as? LegacyState)?.counter == 8)
    }
}
