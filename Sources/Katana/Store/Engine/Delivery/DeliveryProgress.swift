/// What a listener delivery running on this thread still has to settle in the run it is
/// delivering: found through a thread-local slot by a listener that blocks in a `wait` (its
/// delivery cannot go on until the listener returns, so those promises settle at once).
///
/// Touched only by the thread running the delivery: the delivery itself, and the listeners it calls.
final class DeliveryProgress {
    /// The delivery; it outlives its progress (it created it, and clears the slot when it ends).
    unowned let owner: any ListenersBlocking
    /// The promises of the current run not settled yet, in change order.
    var unsettled: ArraySlice<PromiseHandle?> = []

    init(owner: any ListenersBlocking) {
        self.owner = owner
    }

    /// Settles every promise still waiting in the current run.
    func settleUnsettled() {
        let waiting = unsettled
        unsettled = []
        for promise in waiting {
            promise?.settleDone()
        }
    }

    /// The delivery in progress on this thread, if any.
    static var current: DeliveryProgress? {
        slot.current
    }

    /// Marks `progress` as the delivery in progress on this thread; returns the previous mark.
    static func enter(_ progress: DeliveryProgress) -> ThreadLocal<DeliveryProgress>.Previous {
        slot.replace(with: progress)
    }

    /// Restores the mark `enter` replaced.
    static func leave(restoring previous: ThreadLocal<DeliveryProgress>.Previous) {
        slot.restore(previous)
    }

    private static let slot = ThreadLocal<DeliveryProgress>(.delivery)
}
