import Dispatch
import Testing
@testable import Katana

/// `Promise.cancel()`: what happens to the work behind a promise, wherever that work is.
@Suite struct CancellationTests {
    // MARK: - Promises without a store

    @Test func cancellingAPendingPromise_rejectsItWithCancelled_once() {
        let promise = Promise<Int> { _, _ in }
        promise.cancel()
        #expect(rejection(of: promise)?.katana == .cancelled(item: "Promise<Swift.Int>"))
        #expect(promise.isCancelled)
        // A second cancel changes nothing, and neither does a late fulfilment.
        promise.cancel()
        #expect(!promise.resolve(3))
        #expect(promise.isCancelled)
    }

    @Test func cancellingASettledPromise_changesNothing() throws {
        let fulfilled = Promise(resolved: 3)
        fulfilled.cancel()
        #expect(try fulfilled.wait(timeout: defaultTestTimeout) == 3)
        #expect(!fulfilled.isCancelled)
        let rejected = Promise<Int>(rejected: TestError(code: 1))
        rejected.cancel()
        #expect(rejection(of: rejected) as? TestError == TestError(code: 1))
        #expect(!rejected.isCancelled)
    }

    @Test func cancellingAnOperationPromise_cancelsItsTask() async throws {
        let gate = AsyncGate()
        let events = EventLog()
        let promise = Promise<Int> {
            events.append("started")
            do {
                try await gate.wait()
            } catch {
                events.append("task cancelled: \(Task.isCancelled)")
                throw error
            }
            return 1
        }
        #expect(await eventuallyAsync { gate.waitingCount == 1 })
        promise.cancel()
        #expect(rejection(of: promise)?.katana == .cancelled(item: "Promise<Swift.Int>"))
        #expect(await eventuallyAsync { events.values == ["started", "task cancelled: true"] })
    }

    @Test func cancellingAChainedPromise_cancelsItsPendingSource() {
        let source = Promise<Int> { _, _ in }
        let derived = source.then { $0 + 1 }.recover { _ in Promise(resolved: 0) }
        derived.cancel()
        #expect(derived.isCancelled)
        #expect(source.isCancelled)
    }

    @Test func cancellingAChainedPromise_leavesASettledSourceAlone() throws {
        let queue = DispatchQueue(label: "held callbacks")
        queue.suspend()
        let source = Promise(resolved: 1)
        let derived = source.then(in: queue) { $0 + 1 }
        derived.cancel()
        queue.resume()
        queue.sync {}
        #expect(derived.isCancelled)
        #expect(try source.wait(timeout: defaultTestTimeout) == 1)
        #expect(!source.isCancelled)
    }

    // MARK: - State updaters

    @Test func anUpdaterStillWaitingInTheInbox_isNeverApplied() throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        store.dispatch(HoldingUpdater(started: started, release: release))
        #expect(started.wait(timeout: defaultTestTimeout))
        let first = store.dispatch(Increment(amount: 1))
        let cancelled = store.dispatch(Increment(amount: 2))
        let last = store.dispatch(Increment(amount: 4))
        cancelled.cancel()
        #expect(rejection(of: cancelled, timeout: defaultTestTimeout)?.katana == .cancelled(item: "KatanaTests.Increment"))
        release.open()
        try first.wait(timeout: defaultTestTimeout)
        try last.wait(timeout: defaultTestTimeout)
        #expect(store.state.applied == [1, 4])
        #expect(store.state.counter == 1005)
    }

    @Test func anAppliedUpdater_keepsItsValue_andTheStateStays() throws {
        let store = makeStore()
        let promise = store.dispatch(Increment(amount: 5))
        try promise.wait(timeout: defaultTestTimeout)
        promise.cancel()
        try promise.wait(timeout: defaultTestTimeout)
        #expect(!promise.isCancelled)
        #expect(store.state.counter == 5)
    }

    @Test func anUpdaterAppliedWhoseListenersAreStillRunning_isNotCancelled() throws {
        let store = makeStore()
        let listening = Latch()
        let release = Latch()
        store.addListener { _, _ in
            listening.open()
            release.wait(timeout: holdTimeout)
        }
        let promise = store.dispatch(Increment(amount: 5))
        #expect(listening.wait(timeout: defaultTestTimeout))
        // Applied, and waiting for its listener: cancelling changes nothing.
        promise.cancel()
        #expect(promise.isPending)
        release.open()
        try promise.wait(timeout: defaultTestTimeout)
        #expect(!promise.isCancelled)
        #expect(store.state.counter == 5)
    }

    // MARK: - Side effects

    @Test func aRunningSynchronousSideEffect_isRejectedAtOnce_andItsBodyRunsToItsEnd() throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let promise = store.dispatch(HoldingSideEffect(started: started, release: release))
        #expect(started.wait(timeout: defaultTestTimeout))
        promise.cancel()
        #expect(rejection(of: promise, timeout: defaultTestTimeout)?.katana == .cancelled(item: "KatanaTests.HoldingSideEffect"))
        #expect(!store.sideEffectsAreIdle)
        release.open()
        #expect(eventually { store.sideEffectsAreIdle })
        #expect(promise.isCancelled)
    }

    @Test func anAsyncSideEffectCancelledBeforeItStarts_neverRuns() throws {
        let store = makeStore()
        let events = EventLog()
        let started = Latch()
        let release = Latch()
        store.dispatch(HoldingUpdater(started: started, release: release))
        #expect(started.wait(timeout: defaultTestTimeout))
        let promise = store.dispatch(CheckCancellation(events: events))
        promise.cancel()
        #expect(rejection(of: promise, timeout: defaultTestTimeout)?.katana == .cancelled(item: "KatanaTests.CheckCancellation"))
        release.open()
        try store.dispatch(Increment()).wait(timeout: defaultTestTimeout)
        #expect(eventually { store.sideEffectsAreIdle })
        #expect(events.values.isEmpty)
    }

    @Test func anAsyncSideEffectCancelledWhileSuspended_seesTheCancellation_andItsTaskEnds() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let promise = store.dispatch(AwaitGate(label: "fetch", gate: gate, events: events))
        #expect(await eventuallyAsync { gate.waitingCount == 1 })
        promise.cancel()
        #expect(rejection(of: promise, timeout: defaultTestTimeout)?.katana == .cancelled(item: "KatanaTests.AwaitGate"))
        #expect(await eventuallyAsync { store.sideEffectsAreIdle })
        #expect(events.values == ["fetch started", "fetch cancelled (Task.isCancelled: true)"])
    }

    @Test func anAsyncSideEffectCancelledAfterItFinished_keepsItsValue() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        gate.open()
        let events = EventLog()
        let promise = store.dispatch(AwaitGate(label: "fetch", gate: gate, events: events))
        #expect(try await promise.value == "fetch")
        promise.cancel()
        #expect(try await promise.value == "fetch")
        #expect(!promise.isCancelled)
        #expect(await eventuallyAsync { store.sideEffectsAreIdle })
    }

    @Test func aThenChainOnADispatch_cancelsTheDispatchedSideEffect() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let dispatched = store.dispatch(AwaitGate(label: "fetch", gate: gate, events: events))
        let chained = dispatched.then { "\($0)!" }
        #expect(await eventuallyAsync { gate.waitingCount == 1 })
        chained.cancel()
        #expect(dispatched.isCancelled)
        #expect(await eventuallyAsync { store.sideEffectsAreIdle })
        #expect(events.values.last == "fetch cancelled (Task.isCancelled: true)")
    }
}
