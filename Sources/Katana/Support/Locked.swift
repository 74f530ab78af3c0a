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
/// both `pthread_mutex_t` and `os_unfair_lock`) and no second allocation is needed.
final class LockedStorage<Value>: ManagedBuffer<Value, PlatformMutex> {
    deinit {
        #if !canImport(Darwin)
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        #endif
    }
}

/// A value guarded by a mutex. Every access goes through `withLock`.
struct Locked<Value>: @unchecked Sendable {
    // Safe to share: the value is only touched inside `withLock`, which holds the mutex.
    private let storage: LockedStorage<Value>

    init(_ value: Value) {
        let buffer = LockedStorage<Value>.create(minimumCapacity: 1) { _ in value }
        storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            #if canImport(Darwin)
            mutex.initialize(to: os_unfair_lock())
            #else
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
            #endif
        }
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
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
