import Katana
import Testing

/// An app's own store, as Katana apps write one: it inherits the initialisers and wraps `dispatch`
/// and `addListener`. It restates `@unchecked Sendable` (its added properties are Sendable
/// constants), which Swift asks of every subclass of a class with that conformance.
final class CountingStore: Store<CounterState, TestDependencies>, @unchecked Sendable {
    let updatersDispatched = Counter()
    let listenersAdded = Counter()

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
    @Test func subclass_inheritsTheInitialisers_andItsOverridesRun() throws {
        let store = CountingStore(interceptors: [], stateInitializer: { CounterState(counter: 10) }, configuration: testConfiguration())
        let heard = Recorder<Int>()
        store.addListener { _, new in heard.append(new.counter) }
        try store.dispatch(Increment(amount: 5)).wait(timeout: defaultTestTimeout)
        #expect(store.state.counter == 15)
        #expect(store.updatersDispatched.value == 1)
        #expect(store.listenersAdded.value == 1)
        #expect(heard.values == [15])
    }

    @Test func callsThroughABaseReference_reachTheOverrides() throws {
        let store = CountingStore(interceptors: [], stateInitializer: { CounterState() }, configuration: testConfiguration())
        let partial: PartialStore<CounterState> = store
        try partial.dispatch(Increment()).wait(timeout: defaultTestTimeout)
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
