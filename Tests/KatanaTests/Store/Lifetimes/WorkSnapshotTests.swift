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
        let hold = try await store.holdUpdaterQueue()
        store.dispatch(Increment())
        #expect(!store.workSnapshot.isIdle)
        #expect(store.workSnapshot.dispatchedCount == 2)
        hold.release()
        try await store.waitUntilIdle()
    }

    @Test func aRunningSynchronousSideEffect_makesTheStoreBusy() async throws {
        let store = makeStore()
        let hold = try await store.holdWorker()
        let promise = hold.promise
        #expect(!store.workSnapshot.isIdle)
        hold.release()
        try await promise.value
        try await store.waitUntilIdle()
    }

    @Test func aSuspendedAsyncSideEffect_leavesTheStoreIdle_butIsCounted() async throws {
        let store = makeStore()
        let (promise, gate, _) = try await store.dispatchWaitingAtAGate("wait")
        try await store.waitUntilIdle()
        #expect(gate.waitingCount == 1)
        #expect(store.workSnapshot.runningAsyncSideEffects == 1)
        gate.open()
        #expect(try await promise.value == "wait")
        try await store.waitUntil("the async side effect to end") { store.workSnapshot.runningAsyncSideEffects == 0 }
    }
}
