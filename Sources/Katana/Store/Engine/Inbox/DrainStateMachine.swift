/// The life-cycle of a store's inbox: the items waiting to be handled, and who handles them.
///
/// A plain value, so every transition is tested without threads (`DrainStateMachineTests`). The
/// engine keeps one behind its inbox lock; each method is one event: it moves the machine to its
/// next phase and returns what the engine must do once it has released the lock.
///
/// Items are handled by one thread at a time, the drainer: the thread a transition hands the
/// ``DrainRight`` to. While nobody drains, the machine itself holds the `Drainer` (everything only
/// the drainer may touch); a transition gives it out inside a right, and the right comes back,
/// consumed, when that thread is done. So no two threads ever hold the drainer, by construction.
///
///     starting ─ready─▶ idle ─enqueue─▶ scheduled ─drain block starts─▶ draining
///     draining ─finish─▶ idle (inbox empty) or scheduled (items left)
///     idle ─a side effect handled by the thread dispatching it─▶ draining
///     idle ─a synchronous side effect taken in place, under the lock─▶ idle
///     scheduled ─a waiting thread helps─▶ drainingWithBlockQueued ─finish─▶ scheduled
///                                        drainingWithBlockQueued ─the block starts─▶ draining
///     stop: starting, idle, scheduled ─▶ stopped;  draining… ─▶ drainingThenStop ─finish─▶ stopped
///
/// Apart from the phase, the intake says which new items are taken: all of them (`open`); once a
/// shutdown has begun, only those the store's own work dispatches (`fromStoreWorkOnly`); or none
/// (`closed`). A refused item's promise is rejected by the engine.
struct DrainStateMachine<Drainer: AnyObject, Item> {
    /// Which newly dispatched items the store takes.
    enum Intake: Equatable {
        /// Every item: the store runs normally.
        case open
        /// A shutdown that lets work finish has begun: only items that the store's own work
        /// dispatches (side effects, interceptors, dependencies) are taken.
        case fromStoreWorkOnly
        /// No item: the shutdown cancels what is left, or has finished.
        case closed
    }

    /// Where the inbox is in its life.
    enum Phase {
        /// The store is starting: items wait until it is ready.
        case starting
        /// Ready, with nothing waiting and nobody draining. Holds the drainer.
        case idle(Drainer)
        /// A drain block is on the store's queue and has not started; items wait for it. Holds the drainer.
        case scheduled(Drainer)
        /// A thread holds the drainer and takes the waiting items before it gives it back.
        case draining
        /// A thread that was waiting for a promise holds the drainer while a drain block is also
        /// queued (the block then finds the drainer taken, and leaves the rest to it).
        case drainingWithBlockQueued
        /// The store was released while a thread held the drainer: that thread lets it go when done.
        case drainingThenStop
        /// The store was released: nothing more is handled.
        case stopped
    }

    /// The right to drain the inbox, and with it the drainer: whoever holds one is the only thread
    /// touching what the drainer owns. Not copyable, and only the machine makes one; the holder
    /// gives it up with ``relinquish()`` for ``finish(_:)``.
    struct DrainRight: ~Copyable {
        /// Everything only the drainer may touch.
        let drainer: Drainer

        fileprivate init(_ drainer: Drainer) {
            self.drainer = drainer
        }

        /// Gives the right up; only ``DrainStateMachine/finish(_:)`` can use what is left of it.
        consuming func relinquish() -> Relinquished {
            Relinquished(drainer: drainer, spare: [])
        }
    }

    /// A right given up, on its way back to the machine: it no longer gives access to the drainer.
    struct Relinquished {
        fileprivate let drainer: Drainer
        /// An emptied buffer for the machine to reuse.
        fileprivate let spare: [Item]
    }

    /// What the engine does after an item arrives.
    enum EnqueueAction: ~Copyable {
        /// Nothing: the item waits for the drainer (or for the store to become ready).
        case none
        /// Put a drain block on the store's queue.
        case scheduleDrain
        /// The store is stopped: settle the item's promise with an error.
        case reject(Item)
        /// The store was idle and the item may start on the calling thread: handle it now (it
        /// was not added to the inbox) with the start's right, then ``finish(_:)``.
        case handleHere(Start)
        /// The store is shutting down and takes no such item: reject it with the shutdown's error.
        case refuse(Item)
    }

    /// What the engine does after start-up, or after a drainer finished.
    enum ScheduleAction {
        /// Nothing to do.
        case none
        /// Put a drain block on the store's queue.
        case scheduleDrain
        /// The store was stopped: let the drainer (and everything it holds) go.
        case release(Drainer)
    }

    /// What a thread gets when it takes the drain over: the right, the items to handle (up to and
    /// including its own), and the audience to handle them for.
    struct Handover: ~Copyable {
        let right: DrainRight
        let items: [Item]
        let audience: Audience

        /// The right alone, for a holder that deals with the items some other way.
        consuming func intoRight() -> DrainRight {
            right
        }

        /// Gives the right up once the items have been handled; their buffer, emptied, goes back
        /// to the machine for the next waiting thread (unless it has grown past `keepingAtMost`).
        consuming func relinquish(keepingAtMost capacity: Int) -> Relinquished {
            let drainer = right.drainer
            var buffer = items
            _ = consume self
            if buffer.capacity > capacity {
                buffer = []
            } else {
                buffer.removeAll(keepingCapacity: true)
            }
            return Relinquished(drainer: drainer, spare: buffer)
        }
    }

    /// What the thread dispatching an item to an idle store gets: the right, its item (which
    /// was not added to the inbox), and the audience to handle it for.
    struct Start: ~Copyable {
        let right: DrainRight
        let item: Item
        let audience: Audience
    }

    /// What the engine does when the store is released.
    struct StopAction {
        /// Items that will never be handled: settle their promises with an error.
        var rejected: [Item]
        /// The drainer, when nobody held it: let it go.
        var released: Drainer?
    }

    // The properties below that the extensions in the files next to this one change are internal
    // rather than private for that reason only; nothing else changes them.

    var phase: Phase = .starting
    /// Which new items are taken.
    var intake = Intake.open
    /// Items added so far (wrapping): an item's count when it arrives is its place in dispatch
    /// order (its sequence), which cancelling by id goes by; a shutdown reads it before and after
    /// checking the rest of the store, to know that nothing arrived meanwhile.
    var enqueuedCount: UInt64 = 0
    /// Work under way outside the store that may still dispatch to it (an interceptor's reaction
    /// on a queue of its own): while there is some, the inbox does not count as idle.
    var outsideWork = 0
    var items = SegmentedQueue<Item>()
    /// Who hears about state changes; the drainer learns it with each batch.
    var audience = Audience.nobody
    /// The store itself, held while items wait or are being drained, so that work it has accepted
    /// is handled even once its last outside reference is gone (docs/Architecture.md,
    /// "Lifetimes"); let go as soon as the inbox is idle again (see ``releaseOwnerIfIdle()``).
    var keptAlive: AnyObject?

    /// The number of items waiting.
    var waitingCount: Int {
        items.count
    }

    // MARK: - Events

    /// Start-up finished: the store is ready, and `drainer` handles items from now on.
    mutating func becomeReady(with drainer: Drainer) -> ScheduleAction {
        switch phase {
        case .starting:
            if items.isEmpty {
                phase = .idle(drainer)
                return .none
            }
            phase = .scheduled(drainer)
            return .scheduleDrain
        case .stopped:
            // Released while it was starting: the drainer was never used.
            return .release(drainer)
        case .idle, .scheduled, .draining, .drainingWithBlockQueued, .drainingThenStop:
            // A store becomes ready once; a second drainer has nothing to do.
            return .release(drainer)
        }
    }

    /// An item was dispatched. With `handlingHereWhenIdle`, an idle store hands the caller the
    /// right to handle it at once on its own thread (everything dispatched before it has been
    /// handled, so the order holds) instead of queueing it.
    ///
    /// `fromStoreWork` says the item comes from the store's own work (a side effect, an
    /// interceptor, the dependencies), which a shutdown that lets work finish still takes.
    ///
    /// An item from outside that waits holds the store: `owner` gives it (nil when the store is
    /// being released, whose release then rejects the item), asked only when the store is not held
    /// already. An item from the store's own work takes no hold (it may extend one): its rules and
    /// side effects, which hold the store weakly, must not keep it alive by dispatching.
    mutating func enqueue(
        _ item: consuming Item,
        handlingHereWhenIdle: Bool = false,
        fromStoreWork: Bool = false,
        owner: () -> AnyObject? = { nil }
    ) -> EnqueueAction {
        if intake != .open, intake == .closed || !fromStoreWork {
            return .refuse(item)
        }
        enqueuedCount &+= 1
        switch phase {
        case .starting, .scheduled, .draining, .drainingWithBlockQueued:
            items.append(item)
            holdOwner(owner, unlessFromStoreWork: fromStoreWork)
            return .none
        case .idle(let drainer):
            if handlingHereWhenIdle {
                phase = .draining
                return .handleHere(Start(right: DrainRight(drainer), item: item, audience: audience))
            }
            items.append(item)
            holdOwner(owner, unlessFromStoreWork: fromStoreWork)
            phase = .scheduled(drainer)
            return .scheduleDrain
        case .drainingThenStop, .stopped:
            return .reject(item)
        }
    }

    /// A drain block starts on the store's queue: it gets the right to drain, unless a waiting
    /// thread took the drainer meanwhile (or the store stopped).
    mutating func drainBlockStarts() -> DrainRight? {
        switch phase {
        case .scheduled(let drainer):
            phase = .draining
            return DrainRight(drainer)
        case .drainingWithBlockQueued:
            phase = .draining
            return nil
        case .starting, .idle, .draining, .drainingThenStop, .stopped:
            return nil
        }
    }

    /// The drainer asks for the waiting items: the oldest of them (at most a segment of the inbox)
    /// are swapped into `buffer` (which must be empty), and the audience to handle them for is
    /// returned; nil when none is waiting (the drainer then finishes).
    mutating func nextBatch(into buffer: inout [Item], for right: borrowing DrainRight) -> Audience? {
        switch phase {
        case .draining, .drainingWithBlockQueued, .drainingThenStop:
            guard !items.isEmpty else { return nil }
            items.takeFirstSegment(swappingWith: &buffer)
            return audience
        case .starting, .idle, .scheduled, .stopped:
            // Nobody drains in these phases: a right from elsewhere takes nothing.
            return nil
        }
    }

    /// The drainer is done (the inbox may still hold items it left): the drainer goes back to the
    /// machine, and a drain block is scheduled for what is left.
    mutating func finish(_ right: Relinquished) -> ScheduleAction {
        let drainer = right.drainer
        items.keepSpare(right.spare)
        switch phase {
        case .draining:
            if items.isEmpty {
                phase = .idle(drainer)
                return .none
            }
            phase = .scheduled(drainer)
            return .scheduleDrain
        case .drainingWithBlockQueued:
            // The queued block drains what is left.
            phase = .scheduled(drainer)
            return .none
        case .drainingThenStop:
            phase = .stopped
            return .release(drainer)
        case .starting, .idle, .scheduled, .stopped:
            // Only a drainer finishes, and only while draining.
            return .release(drainer)
        }
    }

    /// A thread is about to block on the promise of an item that may be waiting here. When a drain
    /// block is queued but has not started, and that item is among the first `searchLimit`, the
    /// thread gets the right and the items up to and including it (it handles them itself instead
    /// of sleeping until the queue wakes up); later items stay for the block.
    mutating func help(searchLimit: Int, isTarget: (Item) -> Bool) -> Handover? {
        guard case .scheduled(let drainer) = phase,
              let taken = items.takeThrough(searchingFirst: searchLimit, where: isTarget)
        else { return nil }
        phase = .drainingWithBlockQueued
        return Handover(right: DrainRight(drainer), items: taken, audience: audience)
    }
}
