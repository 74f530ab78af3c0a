#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Marks, per thread, which store is draining its inbox on that thread right now.
///
/// It lets ``Promise/wait(timeout:)`` refuse to block a thread that is handling a store's state
/// updaters (nothing else could handle the item it waits for).
enum StoreQueueMarker {
    private static let key = ThreadLocal.makeKey()

    /// The store draining on this thread, as an opaque identity, or nil.
    static var current: UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Whether the calling thread is draining some store's inbox.
    static var isOnStoreQueue: Bool {
        current != nil
    }

    /// Marks (or, with nil, unmarks) the calling thread; returns the previous mark, to restore.
    @discardableResult
    static func set(_ store: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, store)
        return previous
    }
}
