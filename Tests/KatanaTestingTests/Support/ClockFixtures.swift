@testable import KatanaTesting
import KatanaTestSupport

/// Whether this system has task executors, which the test clock needs to see the tasks it waits
/// for (every Linux; macOS 15, iOS 18 and their peers).
let clockExecutorIsAvailable: Bool = {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        return true
    }
    return false
}()

/// Starts `operation` on the clock's executor where the system has one (suites that depend on it
/// are enabled only there, so the fallback only keeps the tests compiling on older systems).
@discardableResult
func startOnClock<Success: Sendable>(
    _ clock: TestClock,
    _ operation: sending @escaping () async throws -> Success
) -> Task<Success, any Error> {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        return clock.startTask(operation)
    }
    return Task(operation: operation)
}

/// A retry with backoff on `clock`'s executor: sleeps of 1, 2 and 4 seconds, each begun when the
/// previous one woke; the clock's time after each sleep is appended to `attempts`.
func startRetryWithBackoff(on clock: TestClock, notingAttemptsIn attempts: LockedList<TestClock.Instant>) -> Task<Void, any Error> {
    startOnClock(clock) {
        for delay in [1, 2, 4] {
            try await clock.sleep(for: .seconds(delay))
            attempts.append(clock.now)
        }
    }
}

extension TestClock {
    /// Suspends until `condition` holds, asking it again each time the clock tells its observers
    /// that it may have changed (a sleep registered, a job or an activity ended): for a task
    /// outside the clock's executor reaching its sleep, say. Throws ``TimedOut`` naming `what`.
    func waitUntil(
        _ what: String, timeout: Duration = defaultTestTimeout, _ condition: @escaping @Sendable () -> Bool
    ) async throws {
        let changes = LockedList<Void>()
        onChange { changes.append(()) }
        try await changes.waitUntil(what, timeout: timeout) { _ in condition() }
    }
}

/// What `task` returns, awaited within the default bound: throws what it throws, or ``TimedOut``
/// naming `what` if it has not ended by then (the task is then left to end on its own).
@discardableResult
func finished<Success: Sendable>(_ task: Task<Success, any Error>, _ what: String = "the task to end") async throws -> Success {
    try await withTimeout(what) { try await task.value }
}

/// What `task` returns, awaited within the default bound; throws ``TimedOut`` naming `what` if it
/// has not ended by then.
@discardableResult
func finished<Success: Sendable>(_ task: Task<Success, Never>, _ what: String = "the task to end") async throws -> Success {
    try await withTimeout(what) { await task.value }
}
