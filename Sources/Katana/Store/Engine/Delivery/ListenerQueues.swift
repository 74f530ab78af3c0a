import Dispatch

/// Which stores deliver to listeners on each dispatch queue, so that a thread about to block can
/// tell whose deliveries it holds up (see ``ListenerDelivery``).
///
/// A store whose listeners run on a `DispatchQueue` tags the queue (once, with a tag every store
/// on that queue shares); code running on the queue, or on a queue that targets it, finds the tag.
enum ListenerQueues {
    /// The deliveries that run on one queue.
    private final class Tag: @unchecked Sendable {
        // @unchecked: `deliveries` is only reached through its lock.
        let deliveries = Locked<[WeakDelivery]>([])
    }

    private struct WeakDelivery {
        weak var delivery: (any ListenersBlocking)?
    }

    private static let key = DispatchSpecificKey<Tag>()
    /// Serialises tagging, so two stores tagging one queue at once share one tag (the value counts
    /// the tags made).
    private static let tagging = Locked(0)

    /// Records that `delivery` calls its listeners on `queue`.
    static func register(_ delivery: any ListenersBlocking, on queue: DispatchQueue) {
        let tag: Tag = tagging.withLock { tagsMade in
            if let tag = queue.getSpecific(key: key) {
                return tag
            }
            tagsMade += 1
            let tag = Tag()
            queue.setSpecific(key: key, value: tag)
            return tag
        }
        tag.deliveries.withLock { deliveries in
            deliveries.removeAll { $0.delivery == nil }
            deliveries.append(WeakDelivery(delivery: delivery))
        }
    }

    /// The deliveries the calling thread would hold up by blocking: those whose queue it is
    /// running on.
    static func deliveriesOnCurrentQueue() -> [any ListenersBlocking] {
        guard let tag = DispatchQueue.getSpecific(key: key) else { return [] }
        return tag.deliveries.withLock { deliveries in deliveries.compactMap(\.delivery) }
    }
}
