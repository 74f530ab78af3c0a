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

    /// Cancels every running async side effect with this id; returns how many.
    func cancelSideEffects(id: SideEffectID) -> Int {
        sideEffectPool.withLock { $0 }?.cancelSideEffects(id: id) ?? 0
    }
}
