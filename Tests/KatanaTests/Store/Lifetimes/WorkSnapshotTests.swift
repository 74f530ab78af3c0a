import Testing
@testable import Katana

/// `PartialStore.workSnapshot`: what a tool waiting for the store to settle sees.
@Suite struct WorkSnapshotTests {
    @Test func anIdleStore_isIdle_andCountsWhatItWasGiven() async throws {
        let store = makeStore()
        #expect(store.workSnapshot == StoreWorkSnapshot(dispatchedCount: 0, isIdle: true, runningAsyncSideEffects: 0))
        try await store.dispatch(Increment()).value
        #expect(await eventuallyAsync { store.workSnapshot == StoreWorkSnapshot(dispatchedCount: 1, isIdle: true, runningAsyncSideEffects: 0) })
    }

    @Test func aHeldUpdater_orItemsWaitingBehindIt_makeTheStoreBusy() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        store.dispatch(HoldingUpdater(started: started, release: release))
        #expect(started.wait(timeout: defaultTestTimeout))
        store.dispatch(Increment())
        #expect(!store.workSnapshot.isIdle)
        #expect(store.workSnapshot.dispatchedCount == 2)
        release.open()
        #expect(await eventuallyAsync { store.workSnapshot.isIdle })
    }

    @Test func aRunningSynchronousSideEffect_makesTheStoreBusy() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let promise = store.dispatch(HoldingSideEffect(started: started, release: release))
        #expect(started.wait(timeout: defaultTestTimeout))
        #expect(!store.workSnapshot.isIdle)
        release.open()
        try await promise.value
        #expect(await eventuallyAsync { store.workSnapshot.isIdle })
    }

    @Test func aSuspendedAsyncSideEffect_leavesTheStoreIdle_butIsCounted() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let promise = store.dispatch(AwaitGate(label: "wait", gate: gate, events: events))
        #expect(await eventuallyAsync { gate.waitingCount == 1 && store.workSnapshot.isIdle })
        #expect(store.workSnapshot.runningAsyncSideEffects == 1)
        gate.open()
        #expect(try await promise.value == "wait")
        #expect(await eventuallyAsync { store.workSnapshot.runningAsyncSideEffects == 0 })
    }
}
