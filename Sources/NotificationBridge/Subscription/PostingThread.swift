#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which thread is running: tells a cancel made from an observer of the subscription's own post (on
/// the posting thread) from one made elsewhere, and names the threads in ``CancelWaitGraph``.
///
/// Built from `pthread_self()`; a thread's value is only compared while that thread is alive (it
/// is posting, or blocked in a cancel), so a value reused by a later thread is never confused with it.
struct PostingThread: Hashable, Sendable {
    private let id: UInt

    /// The calling thread.
    static var current: PostingThread {
        #if canImport(Glibc)
        return PostingThread(id: UInt(pthread_self()))
        #else
        return PostingThread(id: UInt(bitPattern: pthread_self()))
        #endif
    }
}
