import Foundation
import Testing
@testable import Katana

/// `store.load` and `context.storeLoad`: the items waiting in the inbox and the side effects not yet
/// ended, for a service's gauges.
@Suite struct StoreLoadTests {
    @Test func anIdleStoreHasNoLoad() async throws {
        let store = makeStore()
        try await store.dispatch(Increment()).value
        #expect(await eventuallyAsync { store.load == StoreLoad(waitingItems: 0, activeSideEffects: 0) })
    }

    @Test func itemsBehindABusyUpdaterAreWaiting() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let busy = store.dispatch(BlockingUpdater(started: started, release: release))
        // Polled, not waited for: a test does not block a thread of the shared pool.
        #expect(await eventuallyAsync { started.wait(timeout: .zero) })
        let behind = (0 ..< 3).map { _ in store.dispatch(Increment()) }
        #expect(store.load.waitingItems == 3)
        release.open()
        _ = try await withTimeout { try await busy.value }
        for promise in behind {
            _ = try await withTimeout { try await promise.value }
        }
        #expect(await eventuallyAsync { store.load.waitingItems == 0 })
    }

    @Test func aRunningSideEffectIsActiveUntilItEnds() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let running = store.dispatch(BlockingSideEffect(started: started, release: release))
        #expect(await eventuallyAsync { started.wait(timeout: .zero) })
        #expect(store.load.activeSideEffects == 1)
        release.open()
        _ = try await withTimeout { try await running.value }
        #expect(await eventuallyAsync { store.load.activeSideEffects == 0 })
    }

    @Test func anInterceptorReadsTheSameLoadThroughItsContext() async throws {
        let seen = Recorder<StoreLoad?>()
        let contexts = Recorder<any AnySideEffectContext>()
        let store = makeStore(interceptors: [interceptor(onStart: { contexts.append($0) }) { item, next in
            if item is Increment {
                seen.append(contexts.values.first?.storeLoad)
            }
            try next(item)
        }])
        let started = Latch()
        let release = Latch()
        let running = store.dispatch(BlockingSideEffect(started: started, release: release))
        #expect(await eventuallyAsync { started.wait(timeout: .zero) })
        try await withTimeout { try await store.dispatch(Increment()).value }
        #expect(seen.values == [StoreLoad(waitingItems: 0, activeSideEffects: 1)])
        release.open()
        _ = try await withTimeout { try await running.value }
    }

    @Test func aContextMadeOutsideAStoreHasNoLoad() {
        let context = SideEffectContext<CounterState, TestDependencies>(
            dependencies: TestDependencies(dispatch: { _ in Promise(resolved: ()) }, getState: { CounterState() }),
            getState: { CounterState() },
            dispatch: { _ in Promise(resolved: ()) }
        )
        #expect(context.storeLoad == nil)
    }
}
