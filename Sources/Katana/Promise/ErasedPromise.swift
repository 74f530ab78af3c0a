/// A promise whose value type is hidden, so the store can keep items of every kind in one queue
/// and settle each item's promise with the type-erased outcome of handling it.
protocol ErasedPromise: AnyObject {
    /// Settles the promise with an erased outcome; `item` is what was handled, for error messages.
    func settle(erased outcome: Result<any Sendable, any Error>, replacing item: any Dispatchable)

    /// Settles the promise for a handled state updater, which produces no value.
    func settleDone(replacing item: any Dispatchable)

    /// Whether a handled state updater fulfils the promise whatever the item was: it is a
    /// `Promise<Void>` or a `Promise<any Sendable>` (so no error message will need the item).
    var acceptsDone: Bool { get }

    /// Fulfils a promise that ``acceptsDone``, for a handled state updater.
    func settleDone()

    /// Whether the promise has not settled yet.
    var isPending: Bool { get }

    /// Rejects the promise with `error` unless it has settled; returns whether it did.
    func cancel(with error: any Error) -> Bool

    /// What the store's dispatch context captured for the item this promise settles; nil when it
    /// carries none.
    var dispatchContext: CapturedContext? { get }

    /// Makes the promise carry `context` for its item (replacing any it carried).
    func carry(_ context: CapturedContext?)

    /// ``carry(_:)`` without the lock, for a promise that has not left the thread that made it:
    /// its item is not enqueued yet and the promise not returned to the dispatcher.
    func carryBeforeSharing(_ context: consuming CapturedContext?)

    /// ``carryBeforeSharing(_:)`` with what `capture` returns (nothing when it returns nil), put
    /// in place without a copy.
    func carryBeforeSharing(capturedBy capture: () -> (any Sendable)?)
}
