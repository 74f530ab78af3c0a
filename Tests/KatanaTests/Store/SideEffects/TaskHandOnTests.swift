import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// An async side effect whose body ends without suspending, on the worker that started its task,
/// hands that task on to the worker's next async side effect (docs/StoreAndThreading.md, "Side-effect
/// workers"). Each side effect still behaves as one with a task of its own: cancellation
/// reaches the one that is running and no other, and nothing is lost or reordered.
///
/// The store gets a pool of one thread, so that the side effects queue behind the first one and
/// its worker takes them one after another; the first is held on its worker (before it suspends)
/// until the next one waits.
@Suite struct TaskHandOnTests {
    /// An async side effect that records its start and whether its task was cancelled then,
    /// optionally holds its worker until `hold` opens (it blocks; it does not suspend), and
    /// optionally cancels its own task before it returns.
    private struct Step: AsyncSideEffect {
        let label: String
        let events: EventLog
        var hold: Latch? = nil
        var cancelsItsOwnTask = false

        func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws -> String {
            events.append("\(label) started (Task.isCancelled: \(Task.isCancelled))")
            if let hold, !hold.wait(timeout: holdTimeout) {
                throw TimedOut(waitingFor: "the release", after: holdTimeout)
            }
            if cancelsItsOwnTask {
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return label
        }
    }

    /// A store whose side effects all run on a pool of one thread (a second worker waits for
    /// it, so side effects queue in the store), what its side effects record, and the latch that
    /// holds the first one.
    private struct OneWorker {
        let threads: WorkerThreads
        let store: TestStore
        let events = EventLog()
        let release = Latch()

        init(_ name: String) {
            threads = WorkerThreads(maximumThreads: 1, idleTimeout: .seconds(1), name: name)
            var configuration = testConfiguration()
            configuration.workerThreads = threads
            store = TestStore(interceptors: [], stateInitializer: { CounterState() }, configuration: configuration)
        }

        /// Dispatches a first side effect, which holds the worker (and cancels its own task as it
        /// returns, if `cancelsItsOwnTask`), then `next` once the first has started; waits until
        /// `next` waits for a worker, then releases the first.
        func queue<Next: AsyncSideEffect>(
            _ next: Next,
            behindOneThatCancelsItsOwnTask cancelsItsOwnTask: Bool = false
        ) async throws -> (first: Promise<String>, next: Promise<Next.ReturnValue>) {
            let first = store.dispatch(Step(label: "first", events: events, hold: release, cancelsItsOwnTask: cancelsItsOwnTask))
            try await events.waitUntil("the first side effect to start") { $0.count == 1 }
            let nextPromise = store.dispatch(next)
            try await poll("the second side effect to wait for a worker") { threads.statistics.queued == 1 }
            release.open()
            return (first, nextPromise)
        }
    }

    @Test func aSideEffectThatSuspendsInAHandedOnTask_isCancelledThroughThatTasksHandle() async throws {
        let worker = OneWorker("test.handon.a")
        let gate = AsyncGate()
        let promises = try await worker.queue(AwaitGate(label: "fetch", gate: gate, events: worker.events))
        #expect(try await promises.first.settled() == "first")
        try await gate.waitForWaiters(1)
        promises.next.cancel()
        // Its promise is rejected by the cancellation itself; its body sees it only if the task's
        // handle went to its entry, not to the entry of the side effect the task began with.
        try await worker.events.waitUntil("the suspended side effect to see its cancellation") { $0.count == 3 }
        #expect(worker.events.all == [
            "first started (Task.isCancelled: false)",
            "fetch started",
            "fetch cancelled (Task.isCancelled: true)",
        ])
        try await worker.store.waitUntil("the side effects to end") { worker.store.sideEffectsAreIdle }
    }

    @Test func aSideEffectCancelledWhileItRuns_doesNotPassItsCancellationOn() async throws {
        let worker = OneWorker("test.handon.b")
        let first = worker.store.dispatch(Step(label: "first", events: worker.events, hold: worker.release))
        try await worker.events.waitUntil("the first side effect to start") { $0.count == 1 }
        first.cancel()
        let next = worker.store.dispatch(Step(label: "next", events: worker.events))
        try await poll("the next side effect to wait for a worker") { worker.threads.statistics.queued == 1 }
        worker.release.open()
        #expect(try await next.settled() == "next")
        do {
            _ = try await first.settled()
            Issue.record("the cancelled side effect's promise was fulfilled")
        } catch {
            #expect(KatanaError.isCancellation(error), "the cancelled side effect's promise failed with \(error)")
        }
        #expect(worker.events.all == ["first started (Task.isCancelled: false)", "next started (Task.isCancelled: false)"])
    }

    @Test func aSideEffectThatCancelsItsOwnTask_isFollowedByOneWhoseTaskIsNotCancelled() async throws {
        let worker = OneWorker("test.handon.c")
        let promises = try await worker.queue(Step(label: "next", events: worker.events), behindOneThatCancelsItsOwnTask: true)
        #expect(try await promises.first.settled() == "first")
        #expect(try await promises.next.settled() == "next")
        #expect(worker.events.all == ["first started (Task.isCancelled: false)", "next started (Task.isCancelled: false)"])
    }

    @Test func aBurstOnOneWorker_runsEverySideEffectOnce_inDispatchOrder() async throws {
        let worker = OneWorker("test.handon.d")
        let burst = 1_000
        let first = worker.store.dispatch(Step(label: "first", events: worker.events, hold: worker.release))
        try await worker.events.waitUntil("the first side effect to start") { $0.count == 1 }
        let rest = (0 ..< burst).map { worker.store.dispatch(Step(label: "\($0)", events: worker.events)) }
        worker.release.open()
        _ = try await first.settled()
        for (index, promise) in rest.enumerated() {
            #expect(try await promise.settled() == "\(index)")
        }
        let expected = ["first started (Task.isCancelled: false)"] + (0 ..< burst).map { "\($0) started (Task.isCancelled: false)" }
        #expect(worker.events.all == expected)
        try await worker.store.waitUntil("the side effects to end") { worker.store.sideEffectsAreIdle }
    }
}
