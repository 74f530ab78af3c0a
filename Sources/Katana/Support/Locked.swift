/// A value guarded by a mutex. Every access goes through `withLock`.
struct Locked<Value>: @unchecked Sendable {
    // Safe to share: the value is only touched inside `withLock`, which holds the mutex.
    private let storage: LockedStorage<Value>

    init(_ value: Value) {
        storage = LockedStorage<Value>.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<Result: ~Copyable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
