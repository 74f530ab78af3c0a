extension StoreEngine {
    /// Cancels one dispatch (see `Promise.cancel()`): an item still waiting is taken out of the
    /// inbox and never handled; a side effect the store has taken has its promise rejected, and an
    /// async one its task cancelled; a state updater the store has taken is left alone.
    ///
    /// Nothing here runs per dispatched item: a dispatch pays for cancellation only when it is
    /// cancelled (docs/PERFORMANCE.md, "Cancellation").
    func cancelDispatch(of item: any Dispatchable, settling promise: PromiseHandle) {
        let cancelled = KatanaError.cancelled(item: typeName(of: item))
        if inbox.withLock({ $0.removeWaiting { $0.promise?.isSame(as: promise) ?? false } }) != nil {
            promise.cancel(with: cancelled)
            return
        }
        // Taken for handling. An updater is applied, or being applied: its promise keeps its value.
        guard item is any AnySideEffect, promise.cancel(with: cancelled) else { return }
        sideEffectPool.withLock { $0 }?.cancelStarted(promise)
    }

    /// Cancels the async side effects with this id dispatched so far: those still waiting in the
    /// inbox are taken out, those the store has taken are cancelled (running, or when they begin).
    /// Returns how many were waiting or running.
    func cancelSideEffects(id: SideEffectID) -> Int {
        let (waiting, taken) = inbox.withLock { inbox in
            (inbox.removeAllWaiting { Self.cancellationID(of: $0.item) == id }, inbox.takenCount)
        }
        for envelope in waiting {
            envelope.reject(KatanaError.cancelled(item: typeName(of: envelope.item)))
        }
        let running = sideEffectPool.withLock { $0 }?.cancelSideEffects(id: id, before: taken) ?? 0
        return waiting.count + running
    }

    /// The cancellation id of an item, if it is an async side effect that has one (a cast: for
    /// cancelling by id, not for the drain).
    private static func cancellationID(of item: any Dispatchable) -> SideEffectID? {
        (item as? any AsyncSideEffect)?.cancellationID
    }
}
