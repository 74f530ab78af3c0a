import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// `Configuration.asyncSideEffectTaskStarter`: a tool starts the tasks async side effects run in.
@Suite struct AsyncSideEffectTaskStarterTests {
    private func makeStore(starter: @escaping AsyncSideEffectTaskStarter) -> TestStore {
        var configuration = TestStore.Configuration(listenersAsyncProvider: DispatchQueue(label: "starter.listeners"))
        configuration.asyncSideEffectTaskStarter = starter
        return TestStore(interceptors: [], stateInitializer: { CounterState() }, configuration: configuration)
    }

    @Test func everyAsyncSideEffectRunsInATaskTheStarterStarted() async throws {
        let started = LockedValue(0)
        let store = makeStore { operation in
            started.increment()
            return Task { await operation() }
        }
        #expect(try await store.dispatch(AsyncAdd(amount: 3)).value == 3)
        #expect(try await store.dispatch(AsyncAdd(amount: 4)).value == 7)
        #expect(started.value == 2)
        // Other kinds of item are not started as tasks.
        try await store.dispatch(Increment()).value
        #expect(started.value == 2)
    }

    @Test func cancellingStillReachesATaskTheStarterStarted() async throws {
        let store = makeStore { operation in Task { await operation() } }
        let (promise, _, events) = try await store.dispatchWaitingAtAGate("work")
        promise.cancel()
        try await store.waitUntil("the side effects to end") { store.activeSideEffectCount == 0 }
        #expect(events.all == ["work started", "work cancelled (Task.isCancelled: true)"])
    }

    /// A side effect cancelled after it was registered but before its task existed: the task that
    /// starts it afterwards is cancelled from its first instruction, even when its body runs to its
    /// end before the store gets the task back. The starter cancels it by id at that very moment,
    /// then runs it at once.
    @Test func aSideEffectCancelledBeforeItsTaskExists_runsCancelled() async throws {
        // The store the task starter reaches back into; set once, before the first dispatch.
        let reached = LockedValue<TestStore?>(nil)
        let cancelledInStarter = LockedList<Int>()
        let store = makeStore { operation in
            cancelledInStarter.append(reached.value?.cancelSideEffects(id: "search") ?? 0)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return Task.immediate { await operation() }
            }
            return Task { await operation() }
        }
        reached.withLock { $0 = store }
        let gate = AsyncGate()
        gate.open()
        let events = EventLog()
        let search = store.dispatch(AwaitGate(label: "search", gate: gate, events: events, id: "search"))
        #expect(try await rejection(of: search)?.katana == .cancelled(item: "KatanaTests.AwaitGate"))
        try await store.waitUntil("the side effects to end") { store.activeSideEffectCount == 0 }
        #expect(cancelledInStarter.all == [1])
        #expect(events.all == ["search started", "search cancelled (Task.isCancelled: true)"])
    }
}
