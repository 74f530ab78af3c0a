import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// `store.load` and `context.storeLoad`: the items waiting in the inbox and the side effects not yet
/// ended, for a service's gauges.
@Suite struct StoreLoadTests {
    @Test func anIdleStoreHasNoLoad() async throws {
        let store = makeStore()
        try await store.dispatch(Increment()).value
        try await store.waitUntil("no load") { store.load == StoreLoad(waitingItems: 0, activeSideEffects: 0) }
    }

    @Test func itemsBehindABusyUpdaterAreWaiting() async throws {
        let store = makeStore()
        let hold = try await store.holdUpdaterQueue()
        let busy = hold.promise
        let behind = (0 ..< 3).map { _ in store.dispatch(Increment()) }
        #expect(store.load.waitingItems == 3)
        hold.release()
        _ = try await busy.settled()
        for promise in behind {
            _ = try await promise.settled()
        }
        try await store.waitUntil("no item waiting") { store.load.waitingItems == 0 }
    }

    @Test func aRunningSideEffectIsActiveUntilItEnds() async throws {
        let store = makeStore()
        let hold = try await store.holdWorker()
        let running = hold.promise
        #expect(store.load.activeSideEffects == 1)
        hold.release()
        _ = try await running.settled()
        try await store.waitUntil("no side effect active") { store.load.activeSideEffects == 0 }
    }

    @Test func anInterceptorReadsTheSameLoadThroughItsContext() async throws {
        let seen = LockedList<StoreLoad?>()
        let contexts = LockedList<any AnySideEffectContext>()
        let store = makeStore(interceptors: [interceptor(onStart: { contexts.append($0) }) { item, next in
            if item is Increment {
                seen.append(contexts.all.first?.storeLoad)
            }
            try next(item)
        }])
        let hold = try await store.holdWorker()
        let running = hold.promise
        try await store.dispatch(Increment()).settled()
        #expect(seen.all == [StoreLoad(waitingItems: 0, activeSideEffects: 1)])
        hold.release()
        _ = try await running.settled()
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
