import Foundation

/// A value behind a lock, for a test whose callbacks run on other threads.
///
/// ```swift
/// let seen = LockedValue(0)
/// store.addListener { _, _ in seen.withLock { $0 += 1 } }
/// ```
public final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked: `stored` is only read or written inside `withLock`, with `lock` held.
    private let lock = NSLock()
    private var stored: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        stored = value
    }

    /// Runs `body` with the value, alone.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// A copy of the value now.
    public var value: Value {
        withLock { $0 }
    }
}
