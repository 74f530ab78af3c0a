/// How items dispatched to a store with a dispatch context get their context: the engine's side
/// of docs/Architecture.md, "Dispatch context".
extension StoreEngine {
    /// Adds an item dispatched from outside, which an idle store starts at once on the calling
    /// thread (a side effect), with what the dispatch context captures here. Without a dispatch
    /// context, one test and the plain path (docs/PERFORMANCE.md, "Dispatch context").
    @inline(__always)
    func enqueueStartingWhenIdle(_ item: any Dispatchable, settling promise: PromiseHandle) {
        if capturesContext {
            enqueueCapturing(item, settling: promise, startingWhenIdle: true)
        } else {
            enqueue(item, settling: promise, startingWhenIdle: true)
        }
    }

    /// Adds an item with its promise carrying what the dispatch context captures here.
    @inline(never)
    func enqueueCapturing(_ item: any Dispatchable, settling promise: PromiseHandle, startingWhenIdle: Bool) {
        enqueue(item, settling: capturing(promise), startingWhenIdle: startingWhenIdle)
    }

    /// `promise`, made for an item about to be enqueued, carrying what the dispatch context
    /// captures here (unless it captures nil).
    func capturing(_ promise: PromiseHandle) -> PromiseHandle {
        guard let captured = captureContext?() else { return promise }
        return promise.carryingBeforeSharing(CapturedContext(captured))
    }
}
