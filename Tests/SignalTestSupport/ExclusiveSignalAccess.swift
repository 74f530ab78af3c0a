import Foundation
import KatanaTestSupport

/// Process-wide exclusive access to signals, for tests.
///
/// Signal dispositions and signal delivery belong to the whole process, and every test target of
/// the package runs in one process, with suites of different targets running in parallel. Every
/// test that changes a disposition or sends a signal (SIGHUP, SIGUSR1, SIGUSR2) to the process
/// runs its body inside ``withExclusiveSignalAccess(timeout:holder:_:)``, so no two such bodies
/// overlap.
///
/// The wait is bounded: if access is not granted within `timeout`, the body does not run and the
/// function returns `nil`, so a stuck holder fails the waiting test instead of hanging it.
public enum ExclusiveSignalAccess {
    private static let holder = LockedValue<String?>(nil)
    /// One entry per release, naming who let go: a waiter suspends until the list grows past what
    /// it saw when its try failed, so a release wakes it at once.
    private static let releases = LockedList<String>()

    /// Who holds exclusive access now, if anyone (for diagnostics).
    public static var currentHolder: String? {
        holder.value
    }

    /// Takes access if it is free: nil when taken, or else how many releases there had been
    /// while it was held (read under the same lock, so a release after the look is counted).
    static func tryAcquire(as name: String) -> Int? {
        holder.withLock { current in
            guard current == nil else { return releases.count }
            current = name
            return nil
        }
    }

    static func release() {
        let name = holder.withLock { current in
            defer { current = nil }
            return current ?? "nobody"
        }
        releases.append(name)
    }

    /// Suspends until there have been more than `seen` releases; false after `timeout`.
    static func waitForRelease(after seen: Int, timeout: Duration) async -> Bool {
        (try? await releases.waitUntil("a release of exclusive signal access", timeout: timeout) { $0.count > seen }) != nil
    }
}

/// Runs `body` while no other test touches signals; waits (without blocking a thread) at most
/// `timeout` for the access, woken by each release. Returns `nil`, without running `body`, if the
/// wait timed out.
public func withExclusiveSignalAccess<T>(
    timeout: Duration = .seconds(180),
    holder: String = #function,
    _ body: () async throws -> T
) async rethrows -> T? {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while let seen = ExclusiveSignalAccess.tryAcquire(as: holder) {
        let left = deadline - clock.now
        guard left > .zero, await ExclusiveSignalAccess.waitForRelease(after: seen, timeout: left) else { return nil }
    }
    defer { ExclusiveSignalAccess.release() }
    return try await body()
}
