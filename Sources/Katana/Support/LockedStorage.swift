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
    /// Allocates the storage (of the dynamic subclass this is called on) holding `value`; with
    /// `spinning`, its mutex spins a little before it sleeps where the platform offers that
    /// (`PthreadMutex.Kind.spinning`; `os_unfair_lock` on Apple platforms either way).
    static func make(_ value: Value, spinning: Bool = false) -> Self {
        make(spinning: spinning) { value }
    }

    /// Allocates the storage holding the value `build` makes, made where it is stored rather than
    /// copied in (docs/PERFORMANCE.md, "Updaters: back-to-back"), with a plain mutex.
    static func make(building build: () -> Value) -> Self {
        make(spinning: false, building: build)
    }

    /// The two above, inlined into each so that a promise's plain mutex costs no test of `spinning`.
    @inline(__always)
    private static func make(spinning: Bool, building build: () -> Value) -> Self {
        let storage = Unsafe.downcast(create(minimumCapacity: 1) { _ in build() }, to: Self.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            #if canImport(Darwin)
            mutex.initialize(to: os_unfair_lock())
            #else
            PthreadMutex.initialize(mutex, kind: spinning ? .spinning : .plain)
            #endif
        }
        return storage
    }

    deinit {
        #if !canImport(Darwin)
        withUnsafeMutablePointerToElements { PthreadMutex.destroy($0) }
        #endif
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    final func withLock<Result: ~Copyable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
            defer { os_unfair_lock_unlock(mutex) }
            #else
            _ = PthreadMutex.lock(mutex)
            defer { PthreadMutex.unlock(mutex) }
            #endif
            return try body(&value.pointee)
        }
    }
}
