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

    /// Adds a synchronous side effect dispatched from outside (see
    /// ``enqueueSynchronousSideEffect(_:settling:)``), with what the dispatch context captures here.
    @inline(__always)
    func enqueueSynchronousSideEffectCapturing(_ item: any Dispatchable, settling promise: PromiseHandle) {
        if capturesContext {
            capture(into: promise)
        }
        enqueueSynchronousSideEffect(item, settling: promise)
    }

    /// Adds an item with its promise carrying what the dispatch context captures here.
    @inline(never)
    func enqueueCapturing(_ item: any Dispatchable, settling promise: PromiseHandle, startingWhenIdle: Bool) {
        capture(into: promise)
        enqueue(item, settling: promise, startingWhenIdle: startingWhenIdle)
    }

    /// Has `promise`, made for an item about to be enqueued, carry what the dispatch context
    /// captures here (unless it captures nil). Changes the promise rather than returning a copy
    /// of its handle, which would retain it.
    func capture(into promise: PromiseHandle) {
        promise.core.carryBeforeSharing(capturedBy: captureContext)
    }
}
