import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// A shutdown reaches every item the store accepted before the call, wherever it is — in the
/// inbox, in the batch the drainer holds, waiting for a worker, running (docs/Architecture.md,
/// "Shutdown"): when it returns, each was handled or cancelled, nothing is applied and no promise
/// is fulfilled afterwards, and the report counts them.
@Suite struct ShutdownReachTests {
    /// An updater that takes `milliseconds` and records that it was applied.
    private struct Slow: StateUpdater {
        let index: Int
        let milliseconds: Int
        let applied: LockedList<Int>
        func updateState(_ state: inout CounterState) {
            if milliseconds > 0 {
                Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
            }
            state.counter += 1
            applied.append(index)
        }
    }

    /// What became of a batch of updaters after a shutdown.
    private struct Outcome {
        var fulfilled: Set<Int> = []
        var cancelled: Set<Int> = []
        var pending: Set<Int> = []
        var otherErrors: [String] = []
    }

    /// Looks at each promise now, without waiting: settled or not, and how.
    private static func outcome(of promises: [Promise<Void>]) -> Outcome {
        var outcome = Outcome()
        for (index, promise) in promises.enumerated() {
            guard let settled = promise.outcome else {
                outcome.pending.insert(index)
                continue
            }
            switch settled {
            case .success:
                outcome.fulfilled.insert(index)
            case .failure(let error):
                if case .cancelledByShutdown? = error as? KatanaError {
                    outcome.cancelled.insert(index)
                } else {
                    outcome.otherErrors.append("\(index): \(error)")
                }
            }
        }
        return outcome
    }

    /// Holds the drainer with an updater, queues `count` slow updaters behind it, shuts down in
    /// `mode` while the first one is being applied, releases it, and checks what the shutdown
    /// promised, at the moment it returns and a while after.
    private func queueSlowUpdatersAndShutDown(
        _ mode: ShutdownMode,
        count: Int,
        milliseconds: Int,
        deadline: Duration
    ) async throws -> (report: ShutdownReport, outcome: Outcome) {
        let store = makeStore()
        let hold = try await store.holdUpdaterQueue()
        let holding = hold.promise
        let applied = LockedList<Int>()
        let promises = (0 ..< count).map { store.dispatch(Slow(index: $0, milliseconds: milliseconds, applied: applied)) }
        let shutdown = Task { await store.shutdown(mode, deadline: deadline) }
        try await store.shutdownHasBegun()
        hold.release()
        let report = try await withTimeout("the shutdown") { await shutdown.value }
        // At the moment it returns: every item handled or cancelled, none pending.
        let outcome = Self.outcome(of: promises)
        let appliedAtReturn = applied.all
        #expect(holding.outcome != nil)
        #expect(outcome.pending.isEmpty, "\(outcome.pending.count) promises still pending when shutdown returned")
        #expect(outcome.otherErrors.isEmpty, "\(outcome.otherErrors.prefix(3))")
        // Fulfilled exactly the applied ones; every other one rejected with the shutdown's error.
        #expect(outcome.fulfilled == Set(appliedAtReturn))
        #expect(outcome.cancelled == Set(0 ..< count).subtracting(appliedAtReturn))
        // The holding updater was being applied when the shutdown began: it counts as handled.
        #expect(report.handled == 1 + appliedAtReturn.count)
        #expect(report.cancelled == outcome.cancelled.count)
        #expect(report.stillRunning == 0)
        #expect(store.state.counter == 1_000 + appliedAtReturn.count)
        // Nothing is applied afterwards, and no promise changes.
        try await Task.sleep(for: .milliseconds(3 * max(milliseconds, 10)))
        #expect(applied.all.count == appliedAtReturn.count)
        #expect(store.state.counter == 1_000 + appliedAtReturn.count)
        #expect(Self.outcome(of: promises).fulfilled == outcome.fulfilled)
        return (report, outcome)
    }

    @Test func finishWork_1000SlowUpdatersQueued_handlesUntilTheDeadline_thenCancelsTheRest() async throws {
        let (report, outcome) = try await queueSlowUpdatersAndShutDown(.finishWork, count: 1_000, milliseconds: 10, deadline: .milliseconds(300))
        // 10 ms each: about 30 fit before the deadline (fewer on a busy machine), never all.
        #expect(outcome.fulfilled.count < 1_000)
        #expect(report.handled + report.cancelled == 1_001)
        // The applied ones are the first ones, in order.
        #expect(outcome.fulfilled == Set(0 ..< outcome.fulfilled.count))
    }

    @Test func cancelWork_1000SlowUpdatersQueued_noneIsApplied_andAllAreCancelled() async throws {
        let (report, outcome) = try await queueSlowUpdatersAndShutDown(.cancelWork, count: 1_000, milliseconds: 10, deadline: .zero)
        #expect(outcome.fulfilled.isEmpty)
        #expect(report == ShutdownReport(handled: 1, cancelled: 1_000, stillRunning: 0))
    }

    @Test func cancelWork_duringABatchOf10000FastOnes_cancelsTheRestOfTheBatch() async throws {
        let (report, outcome) = try await queueSlowUpdatersAndShutDown(.cancelWork, count: 10_000, milliseconds: 0, deadline: .zero)
        #expect(outcome.fulfilled.isEmpty)
        #expect(report == ShutdownReport(handled: 1, cancelled: 10_000, stillRunning: 0))
    }

    @Test func finishWork_duringABatchOf10000FastOnes_handlesThemAll() async throws {
        let (report, outcome) = try await queueSlowUpdatersAndShutDown(.finishWork, count: 10_000, milliseconds: 0, deadline: .seconds(600))
        #expect(outcome.fulfilled.count == 10_000)
        #expect(report == ShutdownReport(handled: 10_001, cancelled: 0, stillRunning: 0))
    }

    @Test(arguments: [ShutdownMode.finishWork, .cancelWork])
    func aShutdownWhileUpdatersStream_leavesNothingPending_andAppliesNothingAfterwards_20Times(_ mode: ShutdownMode) async throws {
        for _ in 0 ..< 20 {
            let store = makeStore()
            let applied = LockedList<Int>()
            let promises = (0 ..< 2_000).map { store.dispatch(Slow(index: $0, milliseconds: 0, applied: applied)) }
            let appliedBefore = store.state.counter
            let report = try await withTimeout("the shutdown") { await store.shutdown(mode, deadline: .milliseconds(5)) }
            let outcome = Self.outcome(of: promises)
            #expect(outcome.pending.isEmpty)
            #expect(outcome.otherErrors.isEmpty)
            #expect(outcome.fulfilled == Set(applied.all))
            #expect(report.cancelled == outcome.cancelled.count)
            // Handled: applied after the shutdown began, so at most those applied after the look before it.
            #expect(report.handled <= outcome.fulfilled.count - appliedBefore + 1)
            #expect(report.handled + report.cancelled + appliedBefore <= 2_000 + 1)
            let counter = store.state.counter
            try await Task.sleep(for: .milliseconds(20))
            #expect(store.state.counter == counter)
            #expect(counter == outcome.fulfilled.count)
        }
    }

    @Test func sideEffectsWaitingForAWorkerAndRunning_areAllReached() async throws {
        let threads = WorkerThreads(maximumThreads: 2, idleTimeout: .seconds(1), name: "test.shutdown")
        var configuration = testConfiguration()
        configuration.workerThreads = threads
        let store = makeStore(configuration: configuration)
        let release = Latch()
        // One async waits on a gate (it gave its thread back when it suspended); two hold both
        // threads; ten more wait for a worker.
        let (running, _, _) = try await store.dispatchWaitingAtAGate("async")
        // Both bodies must have begun: two busy workers alone could be one body and the worker
        // that is still handing the async one's task back (seen under the thread sanitizer).
        let started = [Latch(), Latch()]
        let holding = started.map { store.dispatch(HoldingSideEffect(started: $0, release: release)) }
        for latch in started {
            try await latch.opened("a holding side effect to start")
        }
        try await poll("both workers to be busy") { threads.statistics.busy == 2 }
        let waiting = (0 ..< 10).map { _ in store.dispatch(IncrementLater(amount: 1)) }
        let shutdown = Task { await store.shutdown(.cancelWork, deadline: .zero, gracePeriod: .seconds(600)) }
        _ = try await rejection(of: running)  // settled: the shutdown has cancelled it
        release.open()
        let report = try await withTimeout("the shutdown") { await shutdown.value }
        // The two running bodies finished (handled); the ten never ran; the async one was cancelled.
        #expect(report == ShutdownReport(handled: 2, cancelled: 11, stillRunning: 0))
        for promise in holding {
            _ = try await promise.settled()
        }
        for promise in waiting {
            #expect(rejectionNow(of: promise)?.katana == .cancelledByShutdown(item: "KatanaTests.IncrementLater"))
        }
        #expect(rejectionNow(of: running)?.katana == .cancelledByShutdown(item: "KatanaTests.AwaitGate"))
        #expect(store.state.counter == 0)
    }
}
