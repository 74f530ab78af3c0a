#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Marks, per thread, which store engine is draining its queue on that thread right now.
///
/// It lets ``Promise/wait(timeout:)`` refuse to block a store's own queue, and lets the engine tell
/// an interceptor's synchronous `next` call from one made later on another thread.
enum StoreQueueMarker {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The engine draining on this thread, as an opaque pointer, or nil.
    static var current: UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Whether the calling thread is draining some store's queue.
    static var isOnStoreQueue: Bool {
        current != nil
    }

    /// Marks (or, with nil, unmarks) the calling thread.
    static func set(_ engine: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, engine)
    }
}
