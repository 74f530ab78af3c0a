import Katana
import KatanaTestSupport
import Testing

/// An app's own store, as Katana apps write one: it inherits the initialisers and wraps `dispatch`
/// and `addListener`. It restates `@unchecked Sendable` (its added properties are Sendable
/// constants), which Swift asks of every subclass of a class with that conformance.
final class CountingStore: Store<CounterState, TestDependencies>, @unchecked Sendable {
    let updatersDispatched = LockedValue(0)
    let listenersAdded = LockedValue(0)

    @discardableResult
    override func dispatch<T: AnyStateUpdater>(_ dispatchable: T) -> Promise<Void> {
        updatersDispatched.increment()
        return super.dispatch(dispatchable)
    }

    @discardableResult
    override func addListener(_ listener: @escaping StoreListener<CounterState>) -> StoreUnsubscribe {
        listenersAdded.increment()
        return super.addListener(listener)
    }
}

/// Design §3: `Store` and `PartialStore` are `open`; overrides are reached through base references.
@Suite struct StoreSubclassTests {
    @Test func subclass_inheritsTheInitialisers_andItsOverridesRun() async throws {
        let store = CountingStore(interceptors: [], stateInitializer: { CounterState(counter: 10) }, configuration: testConfiguration())
        let heard = LockedList<Int>()
        store.addListener { _, new in heard.append(new.counter) }
        try await store.dispatch(Increment(amount: 5)).settled()
        #expect(store.state.counter == 15)
        #expect(store.updatersDispatched.value == 1)
        #expect(store.listenersAdded.value == 1)
        #expect(heard.all == [15])
    }

    @Test func callsThroughABaseReference_reachTheOverrides() async throws {
        let store = CountingStore(interceptors: [], stateInitializer: { CounterState() }, configuration: testConfiguration())
        let partial: PartialStore<CounterState> = store
        try await partial.dispatch(Increment()).settled()
        partial.addListener { _, _ in }
        #expect(store.updatersDispatched.value == 1)
        #expect(store.listenersAdded.value == 1)
        #expect(store.state.counter == 1)
    }

    @Test func stateInitializer_isSpelledAsInKatana() throws {
        let initializer: PartialStore<CounterState>.StateInitializer<CounterState> = { CounterState(counter: 3) }
        let store = TestStore(interceptors: [], stateInitializer: initializer, configuration: testConfiguration())
        #expect(store.state.counter == 3)
    }
}
