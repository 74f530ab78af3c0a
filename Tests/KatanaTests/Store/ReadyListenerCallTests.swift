import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// `Configuration.callsListenersWhenReady` (Katana 3.x's first listener call): the ready store
/// calls its `addListener` listeners once with the initial state, before any change.
///
/// The listeners' queue starts suspended, as the main queue is while the main thread that created
/// the store is still running: what the test adds before resuming it is what 3.x code adds in the
/// same turn of the run loop.
@Suite struct ReadyListenerCallTests {
    private func suspendedQueue() -> DispatchQueue {
        let queue = DispatchQueue(label: "test.ready.listeners")
        queue.suspend()
        return queue
    }

    private func configuration(
        listeners: DispatchQueue,
        stateInitializer: any Executor = ImmediateExecutor(),
        callsListenersWhenReady: Bool
    ) -> TestStore.Configuration {
        .init(
            stateInitializerAsyncProvider: stateInitializer,
            listenersAsyncProvider: listeners,
            callsListenersWhenReady: callsListenersWhenReady
        )
    }

    @Test func aListenerAddedRightAfterInit_isCalledOnceWithTheInitialState_beforeAnyChange() async throws {
        let queue = suspendedQueue()
        let store = makeStore(initial: CounterState(counter: 5), configuration: configuration(listeners: queue, callsListenersWhenReady: true))
        let heard = LockedList<String>()
        store.addListener { old, new in heard.append("\(old.counter)->\(new.counter)") }
        let change = store.dispatch(Increment(amount: 2))
        queue.resume()
        try await change.settled()
        #expect(heard.all == ["5->5", "5->7"])
    }

    @Test func itemsDispatchedBeforeReady_changeAfterTheReadyCall() async throws {
        let queue = suspendedQueue()
        let held = HeldExecutor()
        let store = makeStore(configuration: configuration(listeners: queue, stateInitializer: held, callsListenersWhenReady: true))
        let heard = LockedList<String>()
        store.addListener { old, new in heard.append("\(old.counter)->\(new.counter)") }
        let first = store.dispatch(Increment(amount: 1))
        let second = store.dispatch(Increment(amount: 2))
        held.runHeld()
        queue.resume()
        try await first.settled()
        try await second.settled()
        #expect(heard.all == ["0->0", "0->1", "1->3"])
    }

    @Test func everyListenerAddedBeforeTheCallRuns_hearsIt_andOneAddedAfter_hearsOnlyChanges() async throws {
        let queue = suspendedQueue()
        let store = makeStore(configuration: configuration(listeners: queue, callsListenersWhenReady: true))
        let heard = LockedList<String>()
        store.addListener { _, new in heard.append("a\(new.counter)") }
        store.addListener { _, new in heard.append("b\(new.counter)") }
        queue.resume()
        try await store.dispatch(Increment(amount: 1)).settled()
        store.addListener { _, new in heard.append("c\(new.counter)") }
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(heard.all == ["a0", "b0", "a1", "b1", "a2", "b2", "c2"])
    }

    @Test func stateUpdateSequences_doNotHearTheReadyCall() async throws {
        let queue = suspendedQueue()
        let store = makeStore(configuration: configuration(listeners: queue, callsListenersWhenReady: true))
        let updates = store.stateUpdates(buffering: .everyChange)
        let change = store.dispatch(Increment(amount: 4))
        queue.resume()
        try await change.value
        var iterator = updates.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first.map { "\($0.old.counter)->\($0.new.counter)" } == "0->4")
    }

    @Test func withoutTheSwitch_listenersHearOnlyChanges() async throws {
        let queue = suspendedQueue()
        let store = makeStore(configuration: configuration(listeners: queue, callsListenersWhenReady: false))
        let heard = LockedList<String>()
        store.addListener { old, new in heard.append("\(old.counter)->\(new.counter)") }
        let change = store.dispatch(Increment(amount: 1))
        queue.resume()
        try await change.settled()
        #expect(heard.all == ["0->1"])
        #expect(Store<CounterState, TestDependencies>.Configuration().callsListenersWhenReady == false)
    }

    @Test func aStoreReleasedBeforeTheCallRuns_stillCallsItsListeners() async throws {
        let queue = suspendedQueue()
        var store: TestStore? = makeStore(configuration: configuration(listeners: queue, callsListenersWhenReady: true))
        weak let weakStore = store
        let heard = LockedList<String>()
        store?.addListener { old, new in heard.append("\(old.counter)->\(new.counter)") }
        store = nil
        #expect(weakStore != nil, "the delivery holds the store until its listeners heard the call")
        queue.resume()
        try await heard.waitUntil { $0 == ["0->0"] }
        try await poll("the store to be released") { weakStore == nil }
    }
}
