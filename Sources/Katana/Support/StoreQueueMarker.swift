/// Marks, per thread, which store is draining its inbox on that thread right now.
///
/// It lets ``Promise/wait(timeout:)`` refuse to block a thread that is handling a store's state
/// updaters (nothing else could handle the item it waits for).
enum StoreQueueMarker {
    private static let slot = ThreadLocal<AnyObject>(.storeQueue)

    /// Whether the calling thread is draining some store's inbox.
    static var isOnStoreQueue: Bool {
        slot.current != nil
    }

    /// Marks the calling thread as draining `store`'s inbox (nil: none); returns the previous mark.
    static func mark(_ store: AnyObject?) -> ThreadLocal<AnyObject>.Previous {
        slot.replace(with: store)
    }

    /// Restores the mark ``mark(_:)`` replaced.
    static func restore(_ previous: ThreadLocal<AnyObject>.Previous) {
        slot.restore(previous)
    }
}
