#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pthread mutex calls the module's locks make, each result code checked (as swift-nio's
/// `NIOLock` does): a failing mutex call means memory corruption or a lock used wrongly inside
/// the package, never bad input, so it stops the process with the call and the code.
enum PthreadMutex {
    /// Initialises the mutex at `mutex`. An error-checking mutex reports a lock attempt by the
    /// thread that already holds it as `EDEADLK` instead of deadlocking.
    static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, errorChecking: Bool) {
        mutex.initialize(to: pthread_mutex_t())
        guard errorChecking else {
            #if canImport(Glibc)
            // glibc's PTHREAD_MUTEX_INITIALIZER is all zeros, which is what the line above wrote:
            // a default mutex needs no call (docs/PERFORMANCE.md, "A promise's lock").
            #else
            check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
            #endif
            return
        }
        var attributes = pthread_mutexattr_t()
        check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy") }
        check(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
    }

    /// Locks the mutex; returns `EDEADLK` when an error-checking mutex is already held by the
    /// calling thread (the mutex is then not locked again), 0 otherwise.
    static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 {
        let code = pthread_mutex_lock(mutex)
        if code != 0 && code != EDEADLK {
            failed("pthread_mutex_lock", code)
        }
        return code
    }

    /// Unlocks the mutex, which the calling thread holds.
    static func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }

    /// Destroys the mutex, which nobody holds.
    static func destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        mutex.deinitialize(count: 1)
    }

    private static func check(_ code: Int32, _ call: StaticString) {
        if code != 0 {
            failed(call, code)
        }
    }

    private static func failed(_ call: StaticString, _ code: Int32) -> Never {
        fatalError("Katana: \(call) failed with error \(code); a lock inside the package is corrupted or used wrongly")
    }
}
