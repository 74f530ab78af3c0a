import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Store semantics 1: start-up order, items dispatched before the store is ready, the defaults.
@Suite struct StartupTests {
    @Test func startUp_createsDependenciesThenRunsStateInitializerThenInitialisesInterceptorsThenBecomesReady() async throws {
        let events = LockedList<String>()
        let held = HeldExecutor()
        let store = TestStore(
            interceptors: [interceptor(onStart: { _ in events.append("interceptors") }) { item, next in try next(item) }],
            stateInitializer: {
                events.append("state")
                return CounterState(counter: 10)
            },
            dependenciesInitializer: { dispatch, getState in
                events.append("dependencies")
                return TestDependencies(dispatch: dispatch, getState: getState)
            },
            configuration: testConfiguration(stateInitializer: held)
        )
        #expect(events.all == ["dependencies"])
        #expect(store.isReady == false)
        #expect(held.heldCount == 1)

        let first = store.dispatch(RecordApplied(label: "first item", events: events))
        #expect(first.isPending)
        #expect(events.all == ["dependencies"])

        held.runHeld()
        #expect(store.isReady)
        try await first.settled()
        #expect(events.all == ["dependencies", "state", "interceptors", "first item"])
        #expect(store.state.counter == 10)
    }

    @Test func itemsDispatchedBeforeReady_waitAndRunAfterwardsInOrder() async throws {
        let held = HeldExecutor()
        let store = makeStore(configuration: testConfiguration(stateInitializer: held))
        let updates = (1...5).map { store.dispatch(Increment(amount: $0)) }
        let read = store.dispatch(ReadCounter())

        #expect(store.isReady == false)
        #expect(updates.allSatisfy { $0.isPending })
        #expect(read.isPending)

        held.runHeld()
        try await Promise.all(updates).settled()
        // The side effect was dispatched after the five updaters, so it sees all of them.
        #expect(try await read.settled() == 15)
        #expect(store.state.applied == [1, 2, 3, 4, 5])
    }

    @Test func stateInitializerOnSuspendedQueue_storeBecomesReadyWhenQueueResumes() async throws {
        let initQueue = DispatchQueue(label: "test.state-initializer")
        initQueue.suspend()
        let store = makeStore(configuration: testConfiguration(stateInitializer: initQueue))
        let promises = [3, 1, 2].map { store.dispatch(Increment(amount: $0)) }
        let notReadyWhileSuspended = store.isReady == false
        let pendingWhileSuspended = promises.allSatisfy { $0.isPending }
        initQueue.resume()

        #expect(notReadyWhileSuspended)
        #expect(pendingWhileSuspended)
        try await Promise.all(promises).settled()
        #expect(store.isReady)
        #expect(store.state.applied == [3, 1, 2])
    }

    @Test func itemDispatchedFromDependenciesInitializer_runsOnceStoreIsReady() async throws {
        let events = LockedList<String>()
        let store = TestStore(
            interceptors: [],
            stateInitializer: {
                events.append("state")
                return CounterState()
            },
            dependenciesInitializer: { dispatch, getState in
                // Dispatching is allowed before the store is ready; the item waits.
                _ = dispatch(RecordApplied(label: "dispatched by dependencies", events: events))
                _ = dispatch(Increment(amount: 4))
                return TestDependencies(dispatch: dispatch, getState: getState)
            },
            configuration: testConfiguration()
        )
        try await store.dispatch(NoChange()).settled()
        #expect(events.all == ["state", "dispatched by dependencies"])
        #expect(store.state.applied == [4])
    }

    @Test func defaultConfiguration_storeIsReadyWhenInitialiserReturns() {
        let store = Store<CounterState, TestDependencies>()
        #expect(store.isReady)
        #expect(store.state == CounterState())
    }

    /// A command-line program on Linux never drains the main queue: nothing may depend on it.
    @Test func defaultStore_worksWhileMainQueueIsBlocked() async throws {
        let mainBlocked = Latch()
        let releaseMain = Latch()
        DispatchQueue.main.async {
            mainBlocked.open()
            releaseMain.wait(timeout: holdTimeout)
        }
        defer { releaseMain.open() }
        // The test runner drains the main queue, so this returns once the main queue is held.
        try await mainBlocked.opened("the main queue to be held")

        let store = Store<CounterState, TestDependencies>()
        #expect(store.isReady)
        let heard = LockedList<Change>()
        #if os(Linux)
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        #endif
        try await store.dispatch(Increment(amount: 3)).settled()
        #expect(store.state.counter == 3)
        #expect(try await store.dispatch(ReadCounter()).settled() == 3)
        try await store.dispatch(IncrementLater(amount: 4)).settled()
        #expect(store.state.counter == 7)
        #if os(Linux)
        try await heard.waitUntil("2 calls") { $0.count == 2 }
        #expect(heard.all == [Change(0, 3), Change(3, 7)])
        #endif
    }
}
