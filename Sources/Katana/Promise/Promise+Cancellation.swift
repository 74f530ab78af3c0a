extension Promise {
    /// Cancels the work behind this promise, if it has not settled yet.
    ///
    /// What happens depends on where the work is:
    /// - an item still waiting in the store's inbox is taken out and never handled; its promise is
    ///   rejected with ``KatanaError/cancelled(item:)``;
    /// - a state updater the store has taken for handling (it is being applied, or has been) is
    ///   not undone: the promise keeps its value, and cancelling changes nothing;
    /// - an ``AsyncSideEffect`` the store has taken has its task cancelled (or started cancelled),
    ///   so `Task.isCancelled`, `try Task.checkCancellation()` and any cancellable `await` inside
    ///   it see the cancellation; the promise is rejected at once;
    /// - a synchronous ``SideEffect`` the store has taken cannot be stopped: the promise is
    ///   rejected at once, the body runs to its end, and its outcome is dropped;
    /// - a promise made by ``init(operation:)`` is rejected and cancels its task;
    /// - a promise made by `then`, `catch`, `always`, `recover` and the other operators is
    ///   rejected and cancels the promise it came from, when that one is still pending.
    ///
    /// Cancelling a settled promise does nothing.
    public func cancel() {
        guard case .dispatch(let work) = core.withLock({ $0.work }), let engine = work.engine else {
            cancel(with: KatanaError.cancelled(item: cancellationSubject))
            return
        }
        engine.cancelDispatch(of: work.item, settling: handle)
    }

    /// Whether the promise was rejected by a cancellation: ``cancel()``, `cancelSideEffects(id:)`,
    /// a newer side effect with the same id that cancels those in flight, or a store's shutdown.
    public var isCancelled: Bool {
        guard case .failure(let error) = outcome else { return false }
        return KatanaError.isCancellation(error)
    }

    /// Rejects the promise with the cancellation `error` unless it has settled; returns whether it
    /// did. The callbacks run on this thread, so the hooks registered with ``onCancel(_:)`` stop the work.
    @discardableResult
    func cancel(with error: any Error) -> Bool {
        reject(error)
    }

    /// Runs `hook` on the cancelling thread if the promise is rejected by a cancellation (for the
    /// package's own short bookkeeping: cancelling a task, a source promise).
    func onCancel(_ hook: @escaping @Sendable () -> Void) {
        observe { outcome in
            if case .failure(let error) = outcome, KatanaError.isCancellation(error) {
                hook()
            }
        }
    }

    /// What a cancellation error names: the dispatched item's type, or the promise's type.
    private var cancellationSubject: String {
        if case .dispatch(let work) = core.withLock({ $0.work }) {
            return typeName(of: work.item)
        }
        return "Promise<\(typeName(Value.self))>"
    }
}
