extension StoreEngine {
    /// Cancels one dispatch (see `Promise.cancel()`): an item still waiting is taken out of the
    /// inbox and never handled; a side effect the store has taken has its promise rejected, never
    /// runs if it waits for a worker, and has its task cancelled if it is async; a state updater
    /// the store has taken is left alone.
    ///
    /// Nothing here runs per dispatched item: a dispatch pays for cancellation only when it is
    /// cancelled (docs/PERFORMANCE.md, "Cancellation").
    func cancelDispatch(of item: any Dispatchable, settling promise: PromiseHandle) {
        let cancelled = KatanaError.cancelled(item: typeName(of: item))
        let (removed, cut) = inbox.withLock { inbox in
            (inbox.removeWaiting { $0.promise?.isSame(as: promise) ?? false }, inbox.isDraining ? inbox.enqueuedCount : nil)
        }
        if removed != nil {
            promise.cancel(with: cancelled)
            return
        }
        // Taken for handling. An updater is applied, or being applied: its promise keeps its value.
        guard item is any AnySideEffect, promise.cancel(with: cancelled) else { return }
        sideEffects.withLock { $0 }?.cancel(promise: promise, cutBefore: cut)
    }

    /// Cancels the async side effects with this id dispatched so far: those still waiting in the
    /// inbox are taken out, those the store has taken are cancelled, waiting for a worker or
    /// running, and so are those on their way from the inbox to the registry (a cut). Returns how
    /// many were waiting or running.
    func cancelSideEffects(id: SideEffectID) -> Int {
        let (waiting, before, onTheirWay) = inbox.withLock { inbox in
            (inbox.removeAllWaiting { Self.cancellationID(of: $0.item) == id }, inbox.enqueuedCount, inbox.isDraining)
        }
        for envelope in waiting {
            envelope.reject(KatanaError.cancelled(item: typeName(of: envelope.item)))
        }
        let taken = sideEffects.withLock { $0 }?.cancel(id: id, before: before, leavingCut: onTheirWay) ?? 0
        return waiting.count + taken
    }

    /// The cancellation id of an item, if it is an async side effect that has one (a cast: for
    /// cancelling by id, not for the drain).
    private static func cancellationID(of item: any Dispatchable) -> SideEffectID? {
        (item as? any AsyncSideEffect)?.cancellationID
    }
}
