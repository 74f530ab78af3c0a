import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

@Suite struct ExecutorTests {
    @Test func immediateExecutor_executeAsync_runsInlineOnCallingThread() {
        let ran = LockedList<String>()
        let marked = MarkedQueue("test.executor.caller")
        let ranBeforeReturn: Bool = marked.queue.sync {
            ImmediateExecutor().executeAsync {
                ran.append(MarkedQueue.current ?? "other")
            }
            return ran.all.count == 1
        }
        #expect(ranBeforeReturn)
        // It ran where the caller was: on the marked queue.
        #expect(ran.all == ["test.executor.caller"])
    }

    @Test func immediateExecutor_executeSync_returnsValueAndRethrows() {
        let executor = ImmediateExecutor()
        #expect(executor.executeSync { 6 * 7 } == 42)
        #expect(throws: TestError(code: 1)) {
            try executor.executeSync { throw TestError(code: 1) }
        }
    }

    @Test func dispatchQueue_executeAsync_runsOnTheQueue() async throws {
        let marked = MarkedQueue("test.executor.async")
        let seen = LockedList<String>()
        let done = Latch()
        marked.queue.executeAsync {
            seen.append(MarkedQueue.current ?? "other")
            done.open()
        }
        try await done.opened()
        #expect(seen.all == ["test.executor.async"])
    }

    @Test func dispatchQueue_executeSync_runsOnTheQueueAndReturnsValue() throws {
        let marked = MarkedQueue("test.executor.sync")
        #expect(marked.queue.executeSync { MarkedQueue.current } == "test.executor.sync")
        #expect(throws: TestError(code: 2)) {
            try marked.queue.executeSync { throw TestError(code: 2) }
        }
    }

    @Test func dispatchQueue_nestedExecuteSync_onSameQueue_runsInlineWithoutDeadlock() async throws {
        // Run off the test thread so a deadlock would show up as a timeout rather than a hang.
        let marked = MarkedQueue("test.executor.nested")
        let result = LockedList<String>()
        let done = Latch()
        DispatchQueue.global().async {
            let value = marked.queue.executeSync {
                marked.queue.executeSync {
                    marked.queue.executeSync { "innermost on \(MarkedQueue.current ?? "other")" }
                }
            }
            result.append(value)
            done.open()
        }
        try await done.opened()
        #expect(result.all == ["innermost on test.executor.nested"])
    }

    /// "called from code already running on the executor, it runs the closure inline": also from
    /// a block the queue runs through `executeAsync`. A deadlock trap would kill the process, so the
    /// scenario runs in a child process.
    @Test func dispatchQueue_executeSyncFromBlockRunningOnQueue_runsInline() async {
        await #expect(processExitsWith: .success) {
            let queue = DispatchQueue(label: "test.executor.reentrant")
            let done = DispatchSemaphore(value: 0)
            queue.executeAsync {
                let value = queue.executeSync { 7 }
                if value == 7 { done.signal() }
            }
            exit(done.wait(timeout: .now() + 10) == .success ? 0 : 1)
        }
    }

    @Test func dispatchQueue_executeSyncFromAnotherQueue_waitsForTheQueue() async throws {
        let marked = MarkedQueue("test.executor.serial")
        let order = LockedList<String>()
        let started = Latch()
        let release = Latch()
        marked.queue.executeAsync {
            started.open()
            release.wait()
            order.append("async block")
        }
        try await started.opened()
        DispatchQueue.global().async { release.open() }
        // `executeSync` blocks until the queue has run the block before it: on a thread of its own.
        try await onThreadOfItsOwn("executeSync") { marked.queue.executeSync { order.append("sync block") } }
        #expect(order.all == ["async block", "sync block"])
    }
}
