import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// `Promise.cancel()`: what happens to the work behind a promise, wherever that work is.
@Suite struct CancellationTests {
    // MARK: - Promises without a store

    @Test func cancellingAPendingPromise_rejectsItWithCancelled_once() async throws {
        let promise = Promise<Int> { _, _ in }
        promise.cancel()
        #expect(try await rejection(of: promise)?.katana == .cancelled(item: "Promise<Swift.Int>"))
        #expect(promise.isCancelled)
        // A second cancel changes nothing, and neither does a late fulfilment.
        promise.cancel()
        #expect(!promise.resolve(3))
        #expect(promise.isCancelled)
    }

    @Test func cancellingASettledPromise_changesNothing() async throws {
        let fulfilled = Promise(resolved: 3)
        fulfilled.cancel()
        #expect(try await fulfilled.settled() == 3)
        #expect(!fulfilled.isCancelled)
        let rejected = Promise<Int>(rejected: TestError(code: 1))
        rejected.cancel()
        #expect(try await rejection(of: rejected) as? TestError == TestError(code: 1))
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
        try await gate.waitForWaiters(1)
        promise.cancel()
        #expect(try await rejection(of: promise)?.katana == .cancelled(item: "Promise<Swift.Int>"))
        try await events.waitUntil { $0 == ["started", "task cancelled: true"] }
    }

    @Test func cancellingAChainedPromise_cancelsItsPendingSource() {
        let source = Promise<Int> { _, _ in }
        let derived = source.then { $0 + 1 }.recover { _ in Promise(resolved: 0) }
        derived.cancel()
        #expect(derived.isCancelled)
        #expect(source.isCancelled)
    }

    @Test func cancellingAChainedPromise_leavesASettledSourceAlone() async throws {
        let queue = DispatchQueue(label: "held callbacks")
        queue.suspend()
        let source = Promise(resolved: 1)
        let derived = source.then(in: queue) { $0 + 1 }
        derived.cancel()
        queue.resume()
        try await drained(queue)
        #expect(derived.isCancelled)
        #expect(try await source.settled() == 1)
        #expect(!source.isCancelled)
    }

    // MARK: - State updaters

    @Test func anUpdaterStillWaitingInTheInbox_isNeverApplied() async throws {
        let store = makeStore()
        let hold = try await store.holdUpdaterQueue()
        let first = store.dispatch(Increment(amount: 1))
        let cancelled = store.dispatch(Increment(amount: 2))
        let last = store.dispatch(Increment(amount: 4))
        cancelled.cancel()
        #expect(try await rejection(of: cancelled)?.katana == .cancelled(item: "KatanaTests.Increment"))
        hold.release()
        try await first.settled()
        try await last.settled()
        #expect(store.state.applied == [1, 4])
        #expect(store.state.counter == 1005)
    }

    /// Checks that `promise`, an applied `Increment(amount: 5)`'s that was cancelled, was
    /// fulfilled all the same, and the increment stays.
    private func expectCancellingChangedNothing(
        _ promise: Promise<Void>, in store: TestStore, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await promise.settled()
        #expect(!promise.isCancelled, sourceLocation: sourceLocation)
        #expect(store.state.counter == 5, sourceLocation: sourceLocation)
    }

    @Test func anAppliedUpdater_keepsItsValue_andTheStateStays() async throws {
        let store = makeStore()
        let promise = store.dispatch(Increment(amount: 5))
        try await promise.settled()
        promise.cancel()
        try await expectCancellingChangedNothing(promise, in: store)
    }

    @Test func anUpdaterAppliedWhoseListenersAreStillRunning_isNotCancelled() async throws {
        let store = makeStore()
        let listening = Latch()
        let release = Latch()
        store.addListener { _, _ in
            listening.open()
            release.wait(timeout: holdTimeout)
        }
        let promise = store.dispatch(Increment(amount: 5))
        try await listening.opened()
        // Applied, and waiting for its listener: cancelling changes nothing.
        promise.cancel()
        #expect(promise.isPending)
        release.open()
        try await expectCancellingChangedNothing(promise, in: store)
    }

    // MARK: - Side effects

    @Test func aRunningSynchronousSideEffect_isRejectedAtOnce_andItsBodyRunsToItsEnd() async throws {
        let store = makeStore()
        let hold = try await store.holdWorker()
        let promise = hold.promise
        promise.cancel()
        #expect(try await rejection(of: promise)?.katana == .cancelled(item: "KatanaTests.HoldingSideEffect"))
        #expect(!store.sideEffectsAreIdle)
        hold.release()
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
        #expect(promise.isCancelled)
    }

    @Test func anAsyncSideEffectCancelledBeforeItStarts_neverRuns() async throws {
        let store = makeStore()
        let events = EventLog()
        let hold = try await store.holdUpdaterQueue()
        let promise = store.dispatch(CheckCancellation(events: events))
        promise.cancel()
        #expect(try await rejection(of: promise)?.katana == .cancelled(item: "KatanaTests.CheckCancellation"))
        hold.release()
        try await store.dispatch(Increment()).settled()
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
        #expect(events.all.isEmpty)
    }

    @Test func anAsyncSideEffectCancelledWhileSuspended_seesTheCancellation_andItsTaskEnds() async throws {
        let store = makeStore()
        let (promise, _, events) = try await store.dispatchWaitingAtAGate("fetch")
        promise.cancel()
        #expect(try await rejection(of: promise)?.katana == .cancelled(item: "KatanaTests.AwaitGate"))
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
        #expect(events.all == ["fetch started", "fetch cancelled (Task.isCancelled: true)"])
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
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
    }

    @Test func aThenChainOnADispatch_cancelsTheDispatchedSideEffect() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let dispatched = store.dispatch(AwaitGate(label: "fetch", gate: gate, events: events))
        let chained = dispatched.then { "\($0)!" }
        try await gate.waitForWaiters(1)
        chained.cancel()
        #expect(dispatched.isCancelled)
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
        #expect(events.all.last == "fetch cancelled (Task.isCancelled: true)")
    }
}
