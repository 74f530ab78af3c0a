/// A type-erased promise the store keeps next to a dispatched item.
struct PromiseHandle: @unchecked Sendable {
    // @unchecked: the core's state is only reached through its lock.
    let core: any ErasedPromise

    /// Settles the promise with an erased outcome.
    func settle(erased outcome: Result<any Sendable, any Error>, replacing item: any Dispatchable) {
        core.settle(erased: outcome, replacing: item)
    }

    /// Settles the promise for a handled state updater.
    func settleDone(replacing item: any Dispatchable) {
        core.settleDone(replacing: item)
    }

    /// Whether a handled state updater fulfils the promise without the item (see ``ErasedPromise/acceptsDone``).
    var acceptsDone: Bool {
        core.acceptsDone
    }

    /// Fulfils a promise that ``acceptsDone``, for a handled state updater.
    func settleDone() {
        core.settleDone()
    }

    /// Whether the promise has not settled yet (a cancelled item's promise has).
    var isPending: Bool {
        core.isPending
    }

    /// Rejects the promise with `error` unless it has settled; returns whether it did.
    @discardableResult
    func cancel(with error: any Error) -> Bool {
        core.cancel(with: error)
    }

    /// Whether this handle and `other` are the same promise.
    func isSame(as other: PromiseHandle) -> Bool {
        core === other.core
    }

    /// What the store's dispatch context captured for the item this promise settles; nil when
    /// it carries none. Read it only in a store that has a dispatch context: it takes the
    /// promise's lock.
    var dispatchContext: CapturedContext? {
        core.dispatchContext
    }

    /// This promise, now carrying `context` for its item (replacing any it carried).
    func carrying(_ context: CapturedContext?) -> PromiseHandle {
        core.carry(context)
        return self
    }
}

extension Promise {
    /// This promise, type-erased, for the store's queue.
    var handle: PromiseHandle {
        if Value.self == Void.self {
            // Without a look-up of this promise's core type when the caller is generic
            // (docs/PERFORMANCE.md, "Side effects: no-op AsyncSideEffect").
            return PromiseHandle(core: Unsafe.downcast(core, to: PromiseCore<Void>.self))
        }
        return PromiseHandle(core: core)
    }
}
