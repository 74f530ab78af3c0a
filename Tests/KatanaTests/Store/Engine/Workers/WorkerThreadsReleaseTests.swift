import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

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
    private func runCapturing(on pool: WorkerThreads) async throws -> Watch {
        let watch = Watch()
        let ran = LockedList<Void>()
        do {
            let captured = Captured()
            watch.object = captured
            pool.run {
                ran.append(())
                _ = captured
            }
        }
        try await ran.waitForCount(1)
        return watch
    }

    /// An idle timeout far longer than any wait of the test (the default bound, 120 s under the
    /// thread sanitizer): the thread still waits idle when the test looks, so what it let go, it
    /// let go as its work ended. Nothing signals a release: it is polled.
    private static let idleTimeout: Duration = .seconds(600)

    @Test func aThreadsFirstWorkIsFreedOnceItRan_whileTheThreadWaitsIdle() async throws {
        let pool = WorkerThreads(maximumThreads: 2, idleTimeout: Self.idleTimeout, name: "test.release")
        let watch = try await runCapturing(on: pool)
        try await poll("the idle thread to let go of its first work") { watch.object == nil }
        #expect(pool.statistics.threads == 1)
    }

    @Test func aLaterWorkIsFreedOnceItRan_whileTheThreadWaitsIdle() async throws {
        let pool = WorkerThreads(maximumThreads: 1, idleTimeout: Self.idleTimeout, name: "test.release")
        let first = try await runCapturing(on: pool)
        let second = try await runCapturing(on: pool)
        try await poll("the idle thread to let go of both works") { first.object == nil && second.object == nil }
        #expect(pool.statistics.threads == 1)
    }
}
