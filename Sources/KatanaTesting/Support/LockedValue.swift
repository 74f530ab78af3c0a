import Foundation

/// A value guarded by a lock; every access goes through ``withLock(_:)``.
final class LockedValue<Value>: @unchecked Sendable {
    // Safe to share: `value` is only read or written inside `withLock`, which holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
