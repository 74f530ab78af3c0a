/// What a thread announces before it blocks in ``Promise/wait(timeout:)``, so that nothing it is
/// responsible for stalls while it sleeps:
/// - the side effect a store's worker runs on it stops counting against the store's width (see
///   ``WorkerDemand``), so the side effects waiting behind it get workers at once, on every
///   platform, without waiting for the monitor;
/// - a side-effect worker's thread stops counting against the worker threads' cap, so the side
///   effects waiting behind it get a thread even when the cap is reached;
/// - a thread the listeners' executor runs on (a listener, a block on a listener queue) lets those
///   stores settle promises without waiting for listener calls it is holding up.
struct BlockingWait {
    private let deliveries: [any ListenersBlocking]
    private let worker: WorkerThreads.BlockingToken?
    /// The store's worker on this thread, when there is one: its job is the one that blocks.
    private let loop: SideEffectRunner.WorkerLoop?

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
        let loop = SideEffectRunner.workerLoop.current
        loop?.runner.waitBegan(onWorker: loop?.thread ?? 0)
        return BlockingWait(deliveries: deliveries, worker: WorkerThreads.currentThreadWillBlock(), loop: loop)
    }

    /// Announces that the thread woke up.
    func end() {
        for delivery in deliveries {
            delivery.listenersDidUnblock()
        }
        worker?.threadDidUnblock()
        if let loop {
            loop.runner.waitEnded(onWorker: loop.thread)
        }
    }
}
