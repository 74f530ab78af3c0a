extension StoreEngine {
    // MARK: - The ways items reach the inbox

    /// Adds an item to the inbox with what the dispatch context captures here (a retried dispatch
    /// comes this way).
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle) {
        if capturesContext {
            enqueueCapturing(item, settling: promise, startingWhenIdle: false)
        } else {
            enqueue(item, settling: promise, skipsInterceptors: false)
        }
    }

    /// Adds an item that the store's own work dispatches (a side effect through its context, an
    /// interceptor, the dependencies), from `origin`, with the dispatch context `context` says: a
    /// shutdown that lets work finish still takes it.
    func enqueueFromStoreWork(_ item: any Dispatchable, settling promise: PromiseHandle, origin: OriginStamp, context: ContextSource) {
        switch context {
        case .capture:
            if capturesContext {
                capture(into: promise)
            }
        case .given(let given):
            promise.core.carryBeforeSharing(given.context)
        }
        enqueue(item, settling: promise, skipsInterceptors: false, fromStoreWork: true, origin: origin)
    }

    /// Adds an envelope that has been on its way through the store already (see
    /// ``enqueue(_:settling:skipsInterceptors:startingWhenIdle:fromStoreWork:)``).
    func enqueue(_ envelope: Envelope) {
        enqueue(
            envelope.item, settling: envelope.promise, skipsInterceptors: envelope.skipsInterceptors,
            fromStoreWork: true, origin: envelope.origin
        )
    }

    /// Adds a synchronous side effect dispatched from outside. To an idle store, it gets its entry
    /// in the side-effect registry under the inbox's lock, and the store stays idle (see
    /// ``DrainStateMachine/drainerWhileIdle``); otherwise it goes as
    /// ``enqueue(_:settling:skipsInterceptors:startingWhenIdle:fromStoreWork:origin:)`` takes it.
    func enqueueSynchronousSideEffect(_ item: any Dispatchable, settling promise: PromiseHandle) {
        // What the registry's add left to do is done after the inbox's lock.
        var after = SideEffectRunner.AfterInPlace()
        let action = inbox.withLock { inbox in
            let sequence = inbox.enqueuedCount
            if let drainer = inbox.drainerWhileIdle, Unsafe.borrow(drainer, {
                Unsafe.downcast($0, to: Drainer<S>.self).addSynchronousSideEffect(item, settling: promise, sequence: sequence, leaving: &after)
            }) {
                inbox.countTakenInPlace()
                return Inbox.EnqueueAction.none
            }
            return inbox.enqueue(Envelope(item, promise: promise, sequence: sequence), handlingHereWhenIdle: true, owner: { self.owner })
        }
        after.carryOut()
        carryOut(action, fromStoreWork: false)
    }

    // MARK: - A waiting thread handles its own item

    /// How many waiting items a thread blocked on a promise looks through for that promise's item.
    private static var helpingSearchLimit: Int { 64 }

    /// Called by a thread about to block on the promise identified by `promise`: when a drain block
    /// is queued but has not started, and that promise's item is near the front of the inbox,
    /// handles the items up to and including it on this thread. Later items are left to the block.
    func helpDrain(until promise: ObjectIdentifier) {
        let handover = inbox.withLock { inbox in
            inbox.help(searchLimit: Self.helpingSearchLimit) { envelope in
                envelope.promise.map { ObjectIdentifier($0.core) == promise } ?? false
            }
        }
        guard let handover else { return }
        let previous = StoreQueueMarker.mark(self)
        defer { StoreQueueMarker.restore(previous) }
        // A thread waiting for its own item: work from outside, which holds the store.
        handle(handover.items, for: handover.audience, with: handover.right, holdingStore: true)
        finish(handover.relinquish(keepingAtMost: Drainer<S>.retainedBatchCapacity))
    }
}
