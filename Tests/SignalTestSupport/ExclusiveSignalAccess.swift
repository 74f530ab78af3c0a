import Foundation

/// Process-wide exclusive access to signals, for tests.
///
/// Signal dispositions and signal delivery belong to the whole process, and every test target of
/// the package runs in one process, with suites of different targets running in parallel. Every
/// test that changes a disposition or sends a signal (SIGHUP, SIGUSR1, SIGUSR2) to the process
/// runs its body inside ``withExclusiveSignalAccess(timeout:_:)``, so no two such bodies overlap.
///
/// The wait is bounded: if access is not granted within `timeout`, the body does not run and the
/// function returns `nil`, so a stuck holder fails the waiting test instead of hanging it.
public enum ExclusiveSignalAccess {
    private static let lock = NSLock()
    // guarded by `lock`
    nonisolated(unsafe) private static var holder: String?

    /// Who holds exclusive access now, if anyone (for diagnostics).
    public static var currentHolder: String? {
        lock.withLock { holder }
    }

    /// Takes access if it is free; returns whether it was taken.
    static func tryAcquire(as name: String) -> Bool {
        lock.withLock {
            guard holder == nil else { return false }
            holder = name
            return true
        }
    }

    static func release() {
        lock.withLock { holder = nil }
    }
}

/// Runs `body` while no other test touches signals; waits (without blocking a thread) at most
/// `timeout` for the access. Returns `nil`, without running `body`, if the wait timed out.
public func withExclusiveSignalAccess<T>(
    timeout: Duration = .seconds(180),
    holder: String = #function,
    _ body: () async throws -> T
) async rethrows -> T? {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !ExclusiveSignalAccess.tryAcquire(as: holder) {
        if clock.now >= deadline { return nil }
        try? await Task.sleep(for: .milliseconds(2))
    }
    defer { ExclusiveSignalAccess.release() }
    return try await body()
}
