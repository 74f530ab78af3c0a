#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Darwin)
typealias PlatformMutex = os_unfair_lock
#else
typealias PlatformMutex = pthread_mutex_t
#endif

/// A value and the mutex that guards it, in one allocation.
///
/// The mutex lives in the tail of a `ManagedBuffer`, so its address never moves (a requirement of
/// both `pthread_mutex_t` and `os_unfair_lock`) and no second allocation is needed. Subclasses
/// (the promise's storage) add behaviour around the same value-plus-lock layout.
class LockedStorage<Value>: ManagedBuffer<Value, PlatformMutex> {
    /// Allocates the storage (of the dynamic subclass this is called on) holding `value`.
    static func make(_ value: Value) -> Self {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: Self.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            #if canImport(Darwin)
            mutex.initialize(to: os_unfair_lock())
            #else
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
            #endif
        }
        return storage
    }

    deinit {
        #if !canImport(Darwin)
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        #endif
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    final func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
            defer { os_unfair_lock_unlock(mutex) }
            #else
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            #endif
            return try body(&value.pointee)
        }
    }
}

/// A value guarded by a mutex. Every access goes through `withLock`.
struct Locked<Value>: @unchecked Sendable {
    // Safe to share: the value is only touched inside `withLock`, which holds the mutex.
    private let storage: LockedStorage<Value>

    init(_ value: Value) {
        storage = LockedStorage<Value>.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
