import Dispatch
import Testing
@testable import Katana

/// `Configuration.asyncSideEffectTaskStarter`: a tool starts the tasks async side effects run in.
@Suite struct AsyncSideEffectTaskStarterTests {
    private func makeStore(starter: @escaping AsyncSideEffectTaskStarter) -> TestStore {
        TestStore(
            interceptors: [],
            stateInitializer: { CounterState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "starter.listeners"), asyncSideEffectTaskStarter: starter)
        )
    }

    @Test func everyAsyncSideEffectRunsInATaskTheStarterStarted() async throws {
        let started = Counter()
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
        let gate = AsyncGate()
        let events = EventLog()
        let promise = store.dispatch(AwaitGate(label: "work", gate: gate, events: events))
        #expect(await eventuallyAsync { gate.waitingCount == 1 })
        promise.cancel()
        #expect(await eventuallyAsync { store.activeSideEffectCount == 0 })
        #expect(events.values == ["work started", "work cancelled (Task.isCancelled: true)"])
    }
}
