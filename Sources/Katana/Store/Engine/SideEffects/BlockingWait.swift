/// What a thread announces before it blocks in ``Promise/wait(timeout:)``, so that nothing it is
/// responsible for stalls while it sleeps:
/// - a side-effect worker's thread stops counting against the worker threads' cap, so the side
///   effects waiting behind it get a thread even when the cap is reached;
/// - a thread the listeners' executor runs on (a listener, a block on a listener queue) lets those
///   stores settle promises without waiting for listener calls it is holding up.
struct BlockingWait {
    private let deliveries: [any ListenersBlocking]
    private let worker: WorkerThreads.BlockingToken?

    /// Announces that the calling thread is about to block.
    static func begin() -> BlockingWait {
        var deliveries = ListenerQueues.deliveriesOnCurrentQueue()
        if let progress = DeliveryProgress.current {
            // A listener is waiting: its own delivery's promises settle now.
            progress.settleUnsettled()
            if !deliveries.contains(where: { $0 === progress.owner }) {
                deliveries.append(progress.owner)
            }
        }
        for delivery in deliveries {
            delivery.listenersWillBlock()
        }
        return BlockingWait(deliveries: deliveries, worker: WorkerThreads.currentThreadWillBlock())
    }

    /// Announces that the thread woke up.
    func end() {
        for delivery in deliveries {
            delivery.listenersDidUnblock()
        }
        worker?.threadDidUnblock()
    }
}
