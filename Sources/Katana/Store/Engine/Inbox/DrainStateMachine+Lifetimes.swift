/// What happens to the inbox outside the drain itself: cancellations, a shutdown, work under way
/// elsewhere, the store's release, and the questions the rest of the store asks about it.
extension DrainStateMachine {
    // MARK: - Cancelling

    /// A dispatch was cancelled: takes its item out if it is still waiting, so it is never
    /// handled. Nil when it has been taken for handling already (or was never here). The phase
    /// does not change: a drain block that finds nothing left simply finishes.
    mutating func removeWaiting(where isTarget: (Item) -> Bool) -> Item? {
        items.remove(where: isTarget)
    }

    /// Takes out every waiting item that `isTarget` accepts (side effects cancelled by id); they
    /// are never handled.
    mutating func removeAllWaiting(where isTarget: (Item) -> Bool) -> [Item] {
        items.removeAll(where: isTarget)
    }

    // MARK: - Shutdown

    /// A shutdown begins: from now on only items of the store's own work are taken (when it lets
    /// work finish), or none. An intake never opens again.
    mutating func beginShutdown(takingStoreWork: Bool) {
        if intake == .open {
            intake = takingStoreWork ? .fromStoreWorkOnly : .closed
        } else if !takingStoreWork {
            intake = .closed
        }
    }

    /// The shutdown cancels what is left: no item is taken any more, and those waiting are handed
    /// back to be rejected.
    mutating func cancelWaiting() -> [Item] {
        intake = .closed
        return items.takeAll()
    }

    /// Work outside the store begins (see ``outsideWork``).
    mutating func beginOutsideWork() {
        outsideWork += 1
    }

    /// Work outside the store ends.
    mutating func endOutsideWork() {
        outsideWork -= 1
    }

    /// Whether a thread holds the drainer: items may have been taken out of the inbox and not be
    /// handled yet (a cancellation must then leave a cut for them, see `SideEffectRegistry`).
    var isDraining: Bool {
        switch phase {
        case .draining, .drainingWithBlockQueued, .drainingThenStop:
            return true
        case .starting, .idle, .scheduled, .stopped:
            return false
        }
    }

    /// The drainer, while nobody holds it (for the shutdown's final count).
    var restingDrainer: Drainer? {
        switch phase {
        case .idle(let drainer), .scheduled(let drainer):
            return drainer
        case .starting, .draining, .drainingWithBlockQueued, .drainingThenStop, .stopped:
            return nil
        }
    }

    /// The shutdown closes the intake if nothing is waiting, nobody drains, no outside work is
    /// under way and nothing arrived since `enqueuedCount` was `seen`: from then on no item is
    /// taken. Returns whether it did.
    mutating func closeIntakeIfIdle(seen: UInt64) -> Bool {
        guard isIdle, enqueuedCount == seen else { return false }
        intake = .closed
        return true
    }

    /// Whether nothing is waiting, nobody drains and no outside work is under way (a store that
    /// never started, or was released, counts as idle too).
    var isIdle: Bool {
        guard outsideWork == 0 else { return false }
        switch phase {
        case .idle, .stopped, .starting:
            return items.isEmpty
        case .scheduled, .draining, .drainingWithBlockQueued, .drainingThenStop:
            return false
        }
    }

    /// The store was released: nothing more is handled. The waiting items are handed back to be
    /// rejected; the drainer is let go now if nobody holds it, or by its holder when it finishes.
    mutating func stop() -> StopAction {
        let rejected = items.takeAll()
        switch phase {
        case .starting:
            phase = .stopped
            return StopAction(rejected: rejected, released: nil)
        case .idle(let drainer), .scheduled(let drainer):
            phase = .stopped
            return StopAction(rejected: rejected, released: drainer)
        case .draining, .drainingWithBlockQueued:
            phase = .drainingThenStop
            return StopAction(rejected: rejected, released: nil)
        case .drainingThenStop, .stopped:
            return StopAction(rejected: rejected, released: nil)
        }
    }

    /// Whether the store has become ready and is not stopped.
    var isReady: Bool {
        switch phase {
        case .idle, .scheduled, .draining, .drainingWithBlockQueued:
            return true
        case .starting, .drainingThenStop, .stopped:
            return false
        }
    }
}
