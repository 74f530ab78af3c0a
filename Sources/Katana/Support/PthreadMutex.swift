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
    /// How a mutex behaves when it is taken.
    enum Kind {
        /// The default: a thread that finds it held sleeps in the kernel until it is let go.
        case plain
        /// Reports a lock attempt by the thread that already holds it as `EDEADLK` instead of
        /// deadlocking.
        case errorChecking
        /// On glibc, a thread that finds it held spins a little before it sleeps (an "adaptive"
        /// mutex), for a lock that several busy threads take around short sections; elsewhere,
        /// ``plain`` (docs/PERFORMANCE.md, "Side effects: no-op SideEffect").
        case spinning
    }

    /// Initialises the mutex at `mutex`, of `kind`.
    static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, kind: Kind) {
        mutex.initialize(to: pthread_mutex_t())
        switch kind {
        case .plain:
            #if canImport(Glibc)
            // glibc's PTHREAD_MUTEX_INITIALIZER is all zeros, which is what the line above wrote:
            // a default mutex needs no call (docs/PERFORMANCE.md, "A promise's lock").
            #else
            check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
            #endif
        case .errorChecking:
            initialize(mutex, type: Int32(PTHREAD_MUTEX_ERRORCHECK))
        case .spinning:
            #if canImport(Glibc)
            initialize(mutex, type: Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            #else
            check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
            #endif
        }
    }

    /// Initialises the mutex at `mutex` with the attribute `type`.
    private static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, type: Int32) {
        var attributes = pthread_mutexattr_t()
        check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy") }
        check(pthread_mutexattr_settype(&attributes, type), "pthread_mutexattr_settype")
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
