import Testing
@testable import Katana
import KatanaTestSupport

/// `store.shutdown(_:deadline:gracePeriod:)` and `runUntilShutdown()`.
@Suite struct ShutdownTests {
    /// A store with `running` async side effects waiting at `gate`, its updater queue held by a
    /// blocking updater, and `queued` increments waiting behind it.
    private struct Busy {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let hold: Hold
        var running: [Promise<String>] = []
        var queued: [Promise<Void>] = []

        init(running count: Int, queued: Int) async throws {
            for index in 0..<count {
                running.append(store.dispatch(AwaitGate(label: "effect \(index)", gate: gate, events: events)))
            }
            try await gate.waitForWaiters(count)
            hold = try await store.holdUpdaterQueue()
            for _ in 0..<queued {
                self.queued.append(store.dispatch(Increment(amount: 1)))
            }
        }

        /// Shuts the store down with `mode` (with ample time to finish) and, once the shutdown has
        /// begun, lets the held updater go; returns the shutdown's task.
        func shutDown(_ mode: ShutdownMode) async throws -> Task<ShutdownReport, Never> {
            let store = store
            let shutdown = Task { await store.shutdown(mode, deadline: .seconds(600), gracePeriod: .seconds(600)) }
            try await store.shutdownHasBegun()
            hold.release()
            return shutdown
        }
    }

    @Test func finishingWork_handlesEveryQueuedItem_andLetsRunningSideEffectsFinish() async throws {
        let busy = try await Busy(running: 100, queued: 10_000)
        let store = busy.store
        let shutdown = try await busy.shutDown(.finishWork)
        busy.gate.open()
        let report = try await withTimeout("the shutdown") { await shutdown.value }

        #expect(report.cancelled == 0)
        #expect(report.stillRunning == 0)
        #expect(report.handled >= 10_000)
        for promise in busy.queued {
            #expect(!promise.isPending && !promise.isCancelled)
        }
        for (index, promise) in busy.running.enumerated() {
            #expect(try await promise.value == "effect \(index)")
        }
        #expect(store.state.counter == 1_000 + 10_000)
        #expect(store.sideEffectsAreIdle)
        // Nothing is taken any more, whatever its kind.
        #expect(try await rejection(of: store.dispatch(Increment()))?.katana == .storeShutDown(item: "KatanaTests.Increment"))
        #expect(try await rejection(of: store.dispatch(CheckCancellation(events: busy.events)))?.katana == .storeShutDown(item: "KatanaTests.CheckCancellation"))
        #expect(store.state.counter == 1_000 + 10_000)
        #expect(!busy.events.all.contains { $0.hasPrefix("ran") })
    }

    @Test func cancellingWork_rejectsEveryQueuedItem_andCancelsRunningSideEffects() async throws {
        let busy = try await Busy(running: 100, queued: 10_000)
        let store = busy.store
        // The updater being applied cannot be stopped: the shutdown waits for it.
        let shutdown = try await busy.shutDown(.cancelWork)
        let report = try await withTimeout("the shutdown") { await shutdown.value }

        #expect(report.cancelled == 10_100)
        #expect(report.stillRunning == 0)
        for promise in busy.queued {
            #expect(rejectionNow(of: promise)?.katana == .cancelledByShutdown(item: "KatanaTests.Increment"))
        }
        for promise in busy.running {
            #expect(rejectionNow(of: promise)?.katana == .cancelledByShutdown(item: "KatanaTests.AwaitGate"))
        }
        #expect(store.state.counter == 1_000)
        #expect(store.sideEffectsAreIdle)
        let cancelled = busy.events.all.filter { $0.hasSuffix("cancelled (Task.isCancelled: true)") }
        #expect(cancelled.count == 100)
    }

    @Test func theDeadline_cancelsWhatHasNotFinished() async throws {
        let store = makeStore()
        let (stuck, _, events) = try await store.dispatchWaitingAtAGate("slow fetch")
        let report = try await withTimeout("the shutdown") { await store.shutdown(.finishWork, deadline: .milliseconds(50)) }
        #expect(report == ShutdownReport(handled: 0, cancelled: 1, stillRunning: 0))
        #expect(try await rejection(of: stuck)?.katana == .cancelledByShutdown(item: "KatanaTests.AwaitGate"))
        #expect(events.all == ["slow fetch started", "slow fetch cancelled (Task.isCancelled: true)"])
    }

    @Test func aSynchronousSideEffectThatCannotStop_isReportedAsStillRunning_andItsPromiseIsRejectedByTheReturn() async throws {
        let store = makeStore()
        let hold = try await store.holdWorker()
        let blocked = hold.promise
        let report = try await withTimeout("the shutdown") {
            await store.shutdown(.cancelWork, deadline: .zero, gracePeriod: .milliseconds(20))
        }
        #expect(report.stillRunning == 1)
        #expect(report.cancelled == 0)
        // Nothing settles a promise after the shutdown has returned: the body's outcome is dropped.
        #expect(rejectionNow(of: blocked)?.katana == .cancelledByShutdown(item: "KatanaTests.HoldingSideEffect"))
        hold.release()
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
    }

    @Test func workThatTheStoresOwnSideEffectsDispatch_isHandledWhileFinishing() async throws {
        let store = makeStore()
        let hold = try await store.holdUpdaterQueue()
        // Waiting behind the blocking updater: the side effect dispatches an updater when it runs.
        let later = store.dispatch(AsyncAdd(amount: 7))
        let shutdown = Task { await store.shutdown(.finishWork, deadline: .seconds(600)) }
        try await store.shutdownHasBegun()
        hold.release()
        let report = try await withTimeout("the shutdown") { await shutdown.value }
        #expect(try await later.value == 1_007)
        // The updater being applied when the shutdown began, the side effect, and the updater it dispatched.
        #expect(report.handled == 3)
        #expect(report.cancelled == 0)
    }

    @Test func stateUpdateSequences_endWhenTheStoreShutsDown_andLaterOnesEndAtOnce() async throws {
        let store = makeStore()
        // Each sequence listens from the moment it is made.
        let sequences = (store.stateUpdates, store.stateUpdates(buffering: .latestOnly), store.stateUpdates(of: \.counter))
        let everyChange = Task { await sequences.0.reduce(0) { count, _ in count + 1 } }
        let latestOnly = Task { await sequences.1.reduce(0) { count, _ in count + 1 } }
        let keyPath = Task { await sequences.2.reduce(0) { count, _ in count + 1 } }
        try await store.dispatch(Increment()).value
        await store.shutdown()
        #expect(try await withTimeout("every change's sequence to end") { await everyChange.value } == 1)
        #expect(try await withTimeout("the latest-only sequence to end") { await latestOnly.value } == 1)
        #expect(try await withTimeout("the key path's sequence to end") { await keyPath.value } == 1)
        let late = try await withTimeout("a late sequence to end") { await store.stateUpdates.reduce(0) { count, _ in count + 1 } }
        #expect(late == 0)
    }

    @Test func isShuttingDown_fromTheCall_onwards() async throws {
        let store = makeStore()
        let (_, gate, _) = try await store.dispatchWaitingAtAGate("work")
        #expect(!store.isShuttingDown)
        let shutdown = Task { await store.shutdown(.finishWork, deadline: .seconds(600)) }
        try await store.shutdownHasBegun()
        gate.open()
        _ = try await withTimeout("the shutdown") { await shutdown.value }
        #expect(store.isShuttingDown)
    }

    @Test func listeners_areNotCalledAfterTheShutdown() async throws {
        let store = makeStore()
        let calls = LockedValue(0)
        store.addListener { _, _ in calls.increment() }
        try await store.dispatch(Increment()).value
        await store.shutdown()
        let late = LockedValue(0)
        store.addListener { _, _ in late.increment() }
        #expect(try await rejection(of: store.dispatch(Increment()))?.katana == .storeShutDown(item: "KatanaTests.Increment"))
        #expect(calls.value == 1)
        #expect(late.value == 0)
    }

    @Test func everyCallerAndRunUntilShutdown_getTheSameReport() async throws {
        let store = makeStore()
        let runner = Task { await store.runUntilShutdown() }
        let (_, gate, _) = try await store.dispatchWaitingAtAGate("work")
        let first = Task { await store.shutdown(.finishWork, deadline: .seconds(600)) }
        try await poll("the shutdown to begin") { store.engine.shutdownProgress.withLock { $0.phase } == .shuttingDown }
        // Joins the shutdown under way: its own mode is not used.
        let second = Task { await store.shutdown(.cancelWork) }
        gate.open()
        let reports = try await withTimeout("every report") { await [first.value, second.value, runner.value] }
        // The side effect running when the shutdown began finished while it let work finish.
        #expect(reports[0] == ShutdownReport(handled: 1, cancelled: 0, stillRunning: 0))
        #expect(Set(reports).count == 1)
        #expect(await store.shutdown() == reports[0])
    }

    @Test func cancellingTheTaskThatRunsTheStore_shutsItDownCancellingWork() async throws {
        let store = makeStore()
        let (work, _, _) = try await store.dispatchWaitingAtAGate("work")
        let runner = Task { await store.runUntilShutdown() }
        runner.cancel()
        let report = try await withTimeout("the run to end") { await runner.value }
        #expect(report.cancelled == 1)
        #expect(try await rejection(of: work)?.katana == .cancelledByShutdown(item: "KatanaTests.AwaitGate"))
    }

    @Test func releasingAStoreWithoutAShutdown_stillSettlesEveryPromise() async throws {
        var store: TestStore? = makeStore()
        let (work, gate, _) = try #require(try await store?.dispatchWaitingAtAGate("work"))
        store = nil
        gate.open()
        // A running side effect finishes on its own: its promise settles with its value.
        #expect(try await work.value == "work")
    }
}
