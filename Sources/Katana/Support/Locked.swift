/// A value guarded by a mutex. Every access goes through `withLock`.
struct Locked<Value>: @unchecked Sendable {
    // Safe to share: the value is only touched inside `withLock`, which holds the mutex.
    private let storage: LockedStorage<Value>

    /// `value` behind a mutex of its own; with `spinning`, one that spins a little before it
    /// sleeps (see ``LockedStorage/make(_:spinning:)``), for a lock that busy threads share.
    init(_ value: Value, spinning: Bool = false) {
        storage = LockedStorage<Value>.make(value, spinning: spinning)
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<Result: ~Copyable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
