import Testing
@testable import Katana
import KatanaTestSupport

/// `PartialStore.workSnapshot`: what a tool waiting for the store to settle sees.
@Suite struct WorkSnapshotTests {
    @Test func anIdleStore_isIdle_andCountsWhatItWasGiven() async throws {
        let store = makeStore()
        #expect(store.workSnapshot == StoreWorkSnapshot(dispatchedCount: 0, isIdle: true, runningAsyncSideEffects: 0))
        try await store.dispatch(Increment()).value
        try await store.waitUntil("an idle store that was given one item") {
            store.workSnapshot == StoreWorkSnapshot(dispatchedCount: 1, isIdle: true, runningAsyncSideEffects: 0)
        }
    }

    @Test func aHeldUpdater_orItemsWaitingBehindIt_makeTheStoreBusy() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        store.dispatch(HoldingUpdater(started: started, release: release))
        try await started.opened()
        store.dispatch(Increment())
        #expect(!store.workSnapshot.isIdle)
        #expect(store.workSnapshot.dispatchedCount == 2)
        release.open()
        try await store.waitUntilIdle()
    }

    @Test func aRunningSynchronousSideEffect_makesTheStoreBusy() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let promise = store.dispatch(HoldingSideEffect(started: started, release: release))
        try await started.opened()
        #expect(!store.workSnapshot.isIdle)
        release.open()
        try await promise.value
        try await store.waitUntilIdle()
    }

    @Test func aSuspendedAsyncSideEffect_leavesTheStoreIdle_butIsCounted() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let promise = store.dispatch(AwaitGate(label: "wait", gate: gate, events: events))
        try await gate.waitForWaiters(1)
        try await store.waitUntilIdle()
        #expect(gate.waitingCount == 1)
        #expect(store.workSnapshot.runningAsyncSideEffects == 1)
        gate.open()
        #expect(try await promise.value == "wait")
        try await store.waitUntil("the async side effect to end") { store.workSnapshot.runningAsyncSideEffects == 0 }
    }
}
