import Foundation

/// A value behind a lock. It is an `NSLock` (a pthread mutex), which the thread sanitizer follows;
/// Synchronization's `Mutex` waits on futexes directly on Linux, which the sanitizer does not see,
/// so it reports the accesses that `Mutex` orders as races.
// @unchecked: `value` is only read or written inside `withLock`, with `lock` held.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, the lock held.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
