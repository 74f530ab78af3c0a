import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// A small pool for one test; its threads exit soon after the test, once idle.
private func makePool(maximumThreads: Int, idleTimeout: Duration = .milliseconds(200)) -> WorkerThreads {
    WorkerThreads(maximumThreads: maximumThreads, idleTimeout: idleTimeout, name: "Katana.test")
}

/// `count` works that each block their thread until ``release`` opens, announcing their wait when
/// `announced`: each announces before it appends to ``started``, and ends its announced wait before
/// it appends to ``finished``. The hold's own safety net is `holdTimeout` (minutes), far longer than
/// any wait of the test: a hold that ran out in the middle of a test would free its thread before
/// the test looks.
private struct BlockedWorks {
    let count: Int
    let release = Latch()
    let started = LockedList<Void>()
    let finished = LockedList<Void>()

    init(_ count: Int) {
        self.count = count
    }

    /// Runs the works on `pool` and returns once all have started.
    func start(on pool: WorkerThreads, announced: Bool = false) async throws {
        for _ in 0..<count {
            pool.run { [release, started, finished] in
                let token = announced ? WorkerThreads.currentThreadWillBlock() : nil
                started.append(())
                release.wait(timeout: holdTimeout)
                token?.threadDidUnblock()
                finished.append(())
            }
        }
        try await started.waitUntil("\(count) blocked work(s) to start") { [count] in $0.count == count }
    }

    /// Releases the works and returns once all have finished.
    func end() async throws {
        release.open()
        try await finished.waitUntil("\(count) blocked work(s) to finish") { [count] in $0.count == count }
    }
}

/// Runs `count` works that return at once on `pool`, and returns once all have run.
private func runShortWorks(_ count: Int, on pool: WorkerThreads) async throws {
    let done = LockedList<Void>()
    for _ in 0..<count {
        pool.run { done.append(()) }
    }
    try await done.waitUntil("\(count) short works to run") { $0.count == count }
}

/// The worker-thread pool with real threads: blocked threads never hold up other work, work past
/// the cap waits in order and is never lost, threads are reused and exit when idle.
///
/// Blocked works wait on latches the test opens at the end (a `defer` opens them on every path);
/// the test itself suspends until the works' appends say what it waits for, never blocking one of
/// Swift concurrency's threads. The pool's statistics signal nothing: those are polled.
@Suite struct WorkerThreadsTests {
    @Test func shortWorks_completeWhile64WorksAreBlockedUnannounced_belowTheCap() async throws {
        let pool = makePool(maximumThreads: 72)
        let blocked = BlockedWorks(64)
        defer { blocked.release.open() }
        try await blocked.start(on: pool)

        try await runShortWorks(10_000, on: pool)
        #expect(blocked.finished.count == 0, "the blocked works were still blocked")
        let statistics = pool.statistics
        #expect(statistics.threads <= 72, "\(statistics)")
        #expect(statistics.blocked == 0, "\(statistics)")
        try await blocked.end()
    }

    @Test func shortWorks_completeWhile64WorksAreBlockedInAnnouncedWaits_onAPoolOf4() async throws {
        let pool = makePool(maximumThreads: 4)
        let blocked = BlockedWorks(64)
        defer { blocked.release.open() }
        try await blocked.start(on: pool, announced: true)
        #expect(pool.statistics.blocked == 64, "\(pool.statistics)")

        try await runShortWorks(10_000, on: pool)
        #expect(blocked.finished.count == 0, "the blocked works were still blocked")
        #expect(pool.statistics.threads <= 64 + 4, "\(pool.statistics)")
        try await blocked.end()
        #expect(pool.statistics.blocked == 0, "\(pool.statistics)")
    }

    @Test func workPastTheCap_isQueued_andRunsOnceABlockedWorkReturns() async throws {
        // No thread exits during the test, so the count below shows that no thread was added.
        let pool = makePool(maximumThreads: 2, idleTimeout: holdTimeout)
        let (first, second) = (BlockedWorks(1), BlockedWorks(1))
        defer {
            first.release.open()
            second.release.open()
        }
        try await first.start(on: pool)
        try await second.start(on: pool)

        let ran = LockedList<Void>()
        pool.run { ran.append(()) }
        #expect(pool.statistics == WorkerThreads.Statistics(threads: 2, idle: 0, busy: 2, blocked: 0, queued: 1))
        #expect(ran.count == 0)

        try await first.end()
        try await ran.waitForCount(1)
        #expect(pool.statistics.threads == 2, "the freed thread ran it")
        try await second.end()
    }

    @Test func workPastTheCap_runsInSubmissionOrder() async throws {
        let pool = makePool(maximumThreads: 1)
        let blocked = BlockedWorks(1)
        defer { blocked.release.open() }
        try await blocked.start(on: pool)

        let order = LockedList<Int>()
        for number in 1...100 {
            pool.run { order.append(number) }
        }
        #expect(pool.statistics.queued == 100)
        blocked.release.open()
        try await order.waitForCount(100)
        #expect(order.all == Array(1...100))
    }

    @Test func worksSubmittedOneAfterAnother_reuseOneThread() async throws {
        // Long idle timeout: no thread exits during the test, so one thread alive at the end means
        // one thread ran every work.
        let pool = makePool(maximumThreads: 8, idleTimeout: holdTimeout)
        for _ in 0..<1_000 {
            try await withTimeout("the work to run") {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    pool.run { continuation.resume() }
                }
            }
            // The work is done; its thread goes back to idle just after. Work submitted before
            // that moment rightly gets a second thread, so wait for it: this test is about reuse.
            try await poll("the thread to be idle again") { pool.statistics.busy == 0 }
        }
        let statistics = pool.statistics
        #expect(statistics.threads == 1, "\(statistics)")
        #expect(statistics.idle == 1, "\(statistics)")
    }

    @Test func idleThreads_exitAfterTheIdleTimeout() async throws {
        let pool = makePool(maximumThreads: 4, idleTimeout: .milliseconds(50))
        let blocked = BlockedWorks(4)
        defer { blocked.release.open() }
        try await blocked.start(on: pool)
        #expect(pool.statistics.threads == 4)
        try await blocked.end()
        try await poll("the idle threads to exit") { pool.statistics.threads == 0 }
        #expect(pool.statistics == WorkerThreads.Statistics(threads: 0, idle: 0, busy: 0, blocked: 0, queued: 0))

        // An emptied pool starts a thread again.
        try await runShortWorks(1, on: pool)
    }

    @Test func theSharedPool_hasTheDocumentedCapAndIdleTimeout() {
        let shared = WorkerThreads.shared
        #expect(shared === WorkerThreads.shared)
        #expect(shared.maximumThreads == 256)
        #expect(shared.idleTimeout == .seconds(2))
        #expect(shared.name == "Katana.worker")
    }

    @Test func blockingAnnouncements_areNoOpsOffThePool_andKnowThePoolOnIt() async throws {
        #expect(WorkerThreads.currentThreadWillBlock() == nil)
        #expect(WorkerThreads.current == nil)
        let pool = makePool(maximumThreads: 2)
        let seen = LockedList<Bool>()
        pool.run {
            seen.append(WorkerThreads.current === pool)
            let token = WorkerThreads.currentThreadWillBlock()
            seen.append(token != nil && pool.statistics.blocked == 1)
            token?.threadDidUnblock()
            seen.append(pool.statistics.blocked == 0)
        }
        try await seen.waitForCount(3)
        #expect(seen.all == [true, true, true])
    }

    @Test func poolThreads_carryThePoolsName_cutToWhatLinuxKeeps() async throws {
        let pool = makePool(maximumThreads: 1)
        let names = LockedList<String>()
        pool.run { names.append(currentThreadName()) }
        try await names.waitForCount(1)
        #expect(names.all == ["Katana.test"])

        let long = WorkerThreads(maximumThreads: 1, idleTimeout: .milliseconds(50), name: "Katana.a-very-long-name")
        #expect(long.name == "Katana.a-very-l")
        long.run { names.append(currentThreadName()) }
        try await names.waitForCount(2)
        #expect(names.all.last == "Katana.a-very-l")
    }
}

/// The calling thread's name as the system keeps it (what a thread dump shows).
private func currentThreadName() -> String {
    #if os(Linux)
    // Glibc's module does not export pthread_getname_np; the kernel shows the name here.
    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return name.trimmingCharacters(in: .newlines)
    #else
    var buffer = [CChar](repeating: 0, count: 64)
    guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
}
