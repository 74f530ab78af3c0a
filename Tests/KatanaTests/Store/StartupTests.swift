import Dispatch
import Foundation
import Testing
@testable import Katana

/// Store semantics 1: start-up order, items dispatched before the store is ready, the defaults.
@Suite struct StartupTests {
    @Test func startUp_createsDependenciesThenRunsStateInitializerThenInitialisesInterceptorsThenBecomesReady() throws {
        let events = Recorder<String>()
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
        #expect(events.values == ["dependencies"])
        #expect(store.isReady == false)
        #expect(held.heldCount == 1)

        let first = store.dispatch(RecordApplied(label: "first item", events: events))
        #expect(first.isPending)
        #expect(events.values == ["dependencies"])

        held.runHeld()
        #expect(store.isReady)
        try first.wait(timeout: .seconds(10))
        #expect(events.values == ["dependencies", "state", "interceptors", "first item"])
        #expect(store.state.counter == 10)
    }

    @Test func itemsDispatchedBeforeReady_waitAndRunAfterwardsInOrder() throws {
        let held = HeldExecutor()
        let store = makeStore(configuration: testConfiguration(stateInitializer: held))
        let updates = (1...5).map { store.dispatch(Increment(amount: $0)) }
        let read = store.dispatch(ReadCounter())

        #expect(store.isReady == false)
        #expect(updates.allSatisfy { $0.isPending })
        #expect(read.isPending)

        held.runHeld()
        try Promise.all(updates).wait(timeout: .seconds(10))
        // The side effect was dispatched after the five updaters, so it sees all of them.
        #expect(try read.wait(timeout: .seconds(10)) == 15)
        #expect(store.state.applied == [1, 2, 3, 4, 5])
    }

    @Test func stateInitializerOnSuspendedQueue_storeBecomesReadyWhenQueueResumes() throws {
        let initQueue = DispatchQueue(label: "test.state-initializer")
        initQueue.suspend()
        let store = makeStore(configuration: testConfiguration(stateInitializer: initQueue))
        let promises = [3, 1, 2].map { store.dispatch(Increment(amount: $0)) }
        let notReadyWhileSuspended = store.isReady == false
        let pendingWhileSuspended = promises.allSatisfy { $0.isPending }
        initQueue.resume()

        #expect(notReadyWhileSuspended)
        #expect(pendingWhileSuspended)
        try Promise.all(promises).wait(timeout: .seconds(10))
        #expect(store.isReady)
        #expect(store.state.applied == [3, 1, 2])
    }

    @Test func itemDispatchedFromDependenciesInitializer_runsOnceStoreIsReady() throws {
        let events = Recorder<String>()
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
        try store.dispatch(NoChange()).wait(timeout: .seconds(10))
        #expect(events.values == ["state", "dispatched by dependencies"])
        #expect(store.state.applied == [4])
    }

    @Test func defaultConfiguration_storeIsReadyWhenInitialiserReturns() {
        let store = Store<CounterState, TestDependencies>()
        #expect(store.isReady)
        #expect(store.state == CounterState())
    }

    /// A command-line program on Linux never drains the main queue: nothing may depend on it.
    @Test func defaultStore_worksWhileMainQueueIsBlocked() throws {
        let mainBlocked = Latch()
        let releaseMain = Latch()
        DispatchQueue.main.async {
            mainBlocked.open()
            releaseMain.wait(timeout: .seconds(30))
        }
        defer { releaseMain.open() }
        // The test runner drains the main queue, so this returns once the main queue is held.
        mainBlocked.wait(timeout: .seconds(5))

        let store = Store<CounterState, TestDependencies>()
        #expect(store.isReady)
        let heard = Recorder<Change>()
        #if os(Linux)
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        #endif
        try store.dispatch(Increment(amount: 3)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 3)
        #expect(try store.dispatch(ReadCounter()).wait(timeout: .seconds(10)) == 3)
        try store.dispatch(IncrementLater(amount: 4)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 7)
        #if os(Linux)
        #expect(eventually { heard.values.count == 2 })
        #expect(heard.values == [Change(0, 3), Change(3, 7)])
        #endif
    }
}
