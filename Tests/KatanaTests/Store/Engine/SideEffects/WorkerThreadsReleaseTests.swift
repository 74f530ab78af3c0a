import Foundation
import Testing
@testable import Katana

/// A pool thread that waits idle for more work holds nothing of the work it ran: what that work
/// captured (a store's side-effect runner, and through it the store) is freed when the work ends,
/// not when the idle thread exits.
@Suite struct WorkerThreadsReleaseTests {
    /// Something a work captures, whose release the test watches.
    final class Captured: Sendable {}

    /// Watches a `Captured` without keeping it.
    final class Watch: @unchecked Sendable {
        // @unchecked: `object` is written once, before the watch is shared, then only read.
        weak var object: Captured?
    }

    /// Runs one work capturing a fresh object on `pool`, waits for it to run, and returns a watch on
    /// the object (which only the work held).
    private func runCapturing(on pool: WorkerThreads) async -> (Watch, Bool) {
        let watch = Watch()
        let ran = Counter()
        do {
            let captured = Captured()
            watch.object = captured
            pool.run {
                ran.increment()
                _ = captured
            }
        }
        let didRun = await eventuallyAsync { ran.value == 1 }
        return (watch, didRun)
    }

    @Test func aThreadsFirstWorkIsFreedOnceItRan_whileTheThreadWaitsIdle() async {
        // An idle timeout far longer than the wait below: the thread is still waiting idle then.
        let pool = WorkerThreads(maximumThreads: 2, idleTimeout: .seconds(60), name: "test.release")
        let (watch, ran) = await runCapturing(on: pool)
        #expect(ran)
        #expect(await eventuallyAsync(timeout: .seconds(5)) { watch.object == nil }, "the idle thread still holds its first work")
        #expect(pool.statistics.threads == 1)
    }

    @Test func aLaterWorkIsFreedOnceItRan_whileTheThreadWaitsIdle() async {
        let pool = WorkerThreads(maximumThreads: 1, idleTimeout: .seconds(60), name: "test.release")
        let (first, firstRan) = await runCapturing(on: pool)
        #expect(firstRan)
        let (second, secondRan) = await runCapturing(on: pool)
        #expect(secondRan)
        #expect(await eventuallyAsync(timeout: .seconds(5)) { first.object == nil && second.object == nil })
        #expect(pool.statistics.threads == 1)
    }
}
