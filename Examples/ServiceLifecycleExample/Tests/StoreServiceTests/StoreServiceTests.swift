import Dispatch
import Katana
import Logging
import ServiceLifecycle
import Testing
@testable import StoreService

struct Visits: State {
    var count = 0
}

struct Visit: StateUpdater {
    func updateState(_ state: inout Visits) {
        state.count += 1
    }
}

/// A side effect that takes a while, to see a graceful shutdown wait for it.
struct SlowVisit: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<Visits, EmptySideEffectDependencyContainer>) async throws {
        try await Task.sleep(for: .milliseconds(200))
        try await context.dispatch(Visit()).value
    }
}

private func makeStore() -> Store<Visits, EmptySideEffectDependencyContainer> {
    Store(interceptors: [], stateInitializer: { Visits() }, configuration: .init(listenersAsyncProvider: DispatchQueue(label: "example.listeners")))
}

@Suite struct StoreServiceTests {
    @Test func aGracefulShutdownOfTheGroup_drainsTheStore_andTheServiceReturns() async throws {
        let store = makeStore()
        let group = ServiceGroup(services: [StoreService(store: store)], logger: Logger(label: "example"))
        let running = Task { try await group.run() }
        try await store.dispatch(Visit()).value
        let slow = store.dispatch(SlowVisit())

        await group.triggerGracefulShutdown()
        try await running.value

        // The side effect in flight finished, and the updater it dispatched was handled.
        try await slow.value
        #expect(store.state.count == 2)
        // The store takes nothing any more.
        do {
            try await store.dispatch(Visit()).value
            Issue.record("a store that has shut down handled an item")
        } catch let error as KatanaError {
            #expect(error == .storeShutDown(item: "StoreServiceTests.Visit"))
        }
    }

    @Test func cancellingTheGroup_cancelsTheStoresWork() async throws {
        let store = makeStore()
        let group = ServiceGroup(services: [StoreService(store: store)], logger: Logger(label: "example"))
        let running = Task { try await group.run() }
        let slow = store.dispatch(SlowVisit())
        // Started: the side effect is asleep in its task.
        while store.activeSideEffectCount == 0 {
            try await Task.sleep(for: .milliseconds(1))
        }
        running.cancel()
        _ = try? await running.value
        let report = await store.shutdown()
        #expect(report.cancelled == 1)
        #expect(slow.isCancelled)
    }
}
