import DocumentationSupport
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// The "Shutting down" section of docs/Lifetimes.md promises three things; each test quotes the
/// passage (it must still be in that section, word for word) and checks that the store does what
/// it says.
@Suite struct ReadmeShutdownTests {
    private static let returnsOnceIdle = """
        It reaches every item the store accepted before the call, wherever the item is — in the inbox, \
        in the batch the store is working through, waiting for a side-effect worker, or running — and \
        returns, once the store is idle
        """
    private static let waitingItemsAreNotHandled = """
        `.cancelWork` cancels at once: waiting items are not handled, not even those in the batch the \
        store has already taken (their promises are rejected with `KatanaError.cancelledByShutdown(item:)`), \
        side effects waiting for a worker never run, and running async side effects are cancelled.
        """
    private static let takesNothingMore = """
        When it returns, every item accepted before the call has been handled or cancelled, and the \
        store takes nothing more: no updater is applied and no promise is fulfilled afterwards
        """

    /// Where the passages are.
    static let article = "docs/Lifetimes.md"
    static let section = "Shutting down"

    @Test func thePassagesAreQuotedWordForWord() throws {
        let document = try MarkdownDocument(Self.article)
        let section = try #require(document.section(Self.section), "\(Self.article) has no \"\(Self.section)\" section")
        // Every run of whitespace made one space: the article's lines wrap anywhere.
        let text = MarkdownDocument.collapsed(section)
        for passage in [Self.returnsOnceIdle, Self.waitingItemsAreNotHandled, Self.takesNothingMore] {
            #expect(text.contains(MarkdownDocument.collapsed(passage)), "\(Self.article), \"\(Self.section)\", no longer says: \(passage)")
        }
    }

    @Test func itReturnsOnceTheStoreIsIdle_withWorkInTheInboxTheBatchAWorkerAndATask() async throws {
        let store = makeStore()
        let hold = try await store.holdUpdaterQueue()
        let gate = AsyncGate()
        let events = EventLog()
        let task = store.dispatch(AwaitGate(label: "task", gate: gate, events: events))
        let queued = (0 ..< 100).map { _ in store.dispatch(Increment()) }
        let sideEffects = (0 ..< 20).map { _ in store.dispatch(IncrementLater(amount: 1)) }
        let shutdown = Task { await store.shutdown(.finishWork, deadline: .seconds(600)) }
        try await store.shutdownHasBegun()
        hold.release()
        try await gate.waitForWaiters(1)
        gate.open()
        let report = try await withTimeout("the shutdown") { await shutdown.value }
        #expect(store.workSnapshot.isIdle)
        #expect(store.workSnapshot.runningAsyncSideEffects == 0)
        #expect(store.activeSideEffectCount == 0)
        #expect(queued.allSatisfy { $0.outcome != nil } && sideEffects.allSatisfy { $0.outcome != nil } && task.outcome != nil)
        // The holding updater, 100 updaters, 20 side effects and the 20 updaters they dispatched, the task.
        #expect(report == ShutdownReport(handled: 142, cancelled: 0, stillRunning: 0))
        #expect(store.state.counter == 1_000 + 100 + 20)
    }

    @Test func withCancelWork_waitingItemsAreNotHandled_notEvenThoseInTheTakenBatch() async throws {
        let store = makeStore()
        let hold = try await store.holdUpdaterQueue()
        // Dispatched while the holding updater runs: the drainer takes them in its next batches.
        let waiting = (0 ..< 3_000).map { _ in store.dispatch(Increment()) }
        let sideEffects = (0 ..< 10).map { _ in store.dispatch(IncrementLater(amount: 1)) }
        let shutdown = Task { await store.shutdown(.cancelWork, deadline: .zero) }
        try await store.shutdownHasBegun()
        hold.release()
        let report = try await withTimeout("the shutdown") { await shutdown.value }
        #expect(store.state.counter == 1_000)
        for promise in waiting + sideEffects {
            let error = rejectionNow(of: promise)
            #expect((error as? KatanaError).map(KatanaError.isCancellation) == true, "\(String(describing: error))")
        }
        #expect(report == ShutdownReport(handled: 1, cancelled: 3_010, stillRunning: 0))
    }

    @Test func whenItReturns_theStoreTakesNothingMore_andNoPromiseIsFulfilledAfterwards() async throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let dispatched = LockedList<String>()
        let stubborn = store.dispatch(StubbornSideEffect(started: started, release: release, dispatched: dispatched))
        try await started.opened()
        let report = try await withTimeout("the shutdown") { await store.shutdown(.cancelWork, deadline: .zero, gracePeriod: .milliseconds(20)) }
        #expect(report == ShutdownReport(handled: 0, cancelled: 0, stillRunning: 1))
        // Its promise was rejected before the shutdown returned; its outcome will be dropped.
        #expect(rejectionNow(of: stubborn)?.katana == .cancelledByShutdown(item: "KatanaTests.StubbornSideEffect"))
        #expect(rejectionNow(of: store.dispatch(Increment()))?.katana == .storeShutDown(item: "KatanaTests.Increment"))
        release.open()
        try await dispatched.waitForCount(1)
        #expect(dispatched.all == ["\(KatanaError.storeShutDown(item: "KatanaTests.Increment"))"])
        #expect(store.state.counter == 0)
        #expect(rejectionNow(of: stubborn)?.katana == .cancelledByShutdown(item: "KatanaTests.StubbornSideEffect"))
    }
}

/// A side effect that cannot be stopped, and dispatches once it is released.
struct StubbornSideEffect: SideEffect {
    let started: Latch
    let release: Latch
    let dispatched: LockedList<String>
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        started.open()
        _ = release.wait(timeout: holdTimeout)
        do {
            try context.dispatch(Increment()).wait(timeout: defaultTestTimeout)
            dispatched.append("handled")
        } catch {
            dispatched.append("\(error)")
        }
    }
}
