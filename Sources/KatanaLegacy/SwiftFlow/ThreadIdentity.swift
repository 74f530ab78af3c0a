#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which thread is running: lets the subscriber table tell a call made from inside a subscriber's own
/// `newState` (which must not wait for itself) from a call made on another thread.
struct ThreadIdentity: Equatable {
    private let thread: pthread_t

    /// The calling thread.
    static var current: ThreadIdentity {
        ThreadIdentity(thread: pthread_self())
    }

    static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
        pthread_equal(lhs.thread, rhs.thread) != 0
    }
}
