/// Something that accepts dispatched items with the promise to settle: a store's engine.
protocol ItemEnqueueing: AnyObject {
    /// Handles, on the calling thread, the waiting items up to the one whose promise is `promise`,
    /// if nothing is draining the engine and that item is near the front; otherwise does nothing.
    func helpDrain(until promise: ObjectIdentifier)

    /// Adds an item to the engine's queue, with the promise to settle once it has been handled.
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle)

    /// Cancels the dispatch of `item` whose promise is `promise` (see `Promise.cancel()`).
    func cancelDispatch(of item: any Dispatchable, settling promise: PromiseHandle)
}
