import Dispatch
import Testing
@testable import Katana

/// `Configuration.asyncSideEffectTaskStarter`: a tool starts the tasks async side effects run in.
@Suite struct AsyncSideEffectTaskStarterTests {
    private func makeStore(starter: @escaping AsyncSideEffectTaskStarter) -> TestStore {
        var configuration = TestStore.Configuration(listenersAsyncProvider: DispatchQueue(label: "starter.listeners"))
        configuration.asyncSideEffectTaskStarter = starter
        return TestStore(interceptors: [], stateInitializer: { CounterState() }, configuration: configuration)
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

    /// A side effect cancelled after it was registered but before its task existed: the task that
    /// starts it afterwards is cancelled from its first instruction, even when its body runs to its
    /// end before the store gets the task back. The starter cancels it by id at that very moment,
    /// then runs it at once.
    @Test func aSideEffectCancelledBeforeItsTaskExists_runsCancelled() async throws {
        let box = StoreBox()
        let cancelledInStarter = Recorder<Int>()
        let store = makeStore { operation in
            cancelledInStarter.append(box.store?.cancelSideEffects(id: "search") ?? 0)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return Task.immediate { await operation() }
            }
            return Task { await operation() }
        }
        box.store = store
        let gate = AsyncGate()
        gate.open()
        let events = EventLog()
        let search = store.dispatch(AwaitGate(label: "search", gate: gate, events: events, id: "search"))
        #expect(rejection(of: search, timeout: defaultTestTimeout)?.katana == .cancelled(item: "KatanaTests.AwaitGate"))
        #expect(await eventuallyAsync { store.activeSideEffectCount == 0 })
        #expect(cancelledInStarter.values == [1])
        #expect(events.values == ["search started", "search cancelled (Task.isCancelled: true)"])
    }
}

/// The store a task starter reaches back into; set once, before the first dispatch.
private final class StoreBox: @unchecked Sendable {
    // @unchecked: written once before any dispatch, only read afterwards.
    var store: TestStore?
}
