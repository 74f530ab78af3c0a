extension Promise {
    /// Cancels the work behind this promise, if it has not settled yet.
    ///
    /// A pending promise is rejected at once with ``KatanaError/cancelled(item:)``. What happens to
    /// the work depends on where it is:
    /// - an item still waiting in the store's inbox (or for a side-effect worker) is not handled;
    /// - an ``AsyncSideEffect`` that is running has its task cancelled, so `Task.isCancelled`,
    ///   `try Task.checkCancellation()` and any cancellable `await` inside it see the cancellation;
    /// - a synchronous ``SideEffect`` that is running cannot be stopped: it runs to its end, and
    ///   its outcome is dropped;
    /// - a state updater that has been applied (or is being applied) is not undone: the promise
    ///   keeps its value, and cancelling changes nothing;
    /// - a promise made by ``init(operation:)`` cancels its task;
    /// - a promise made by `then`, `catch`, `always` or `recover` cancels the promise it came from,
    ///   when that one is still pending.
    ///
    /// Cancelling a settled promise does nothing.
    public func cancel() {
        cancel(with: KatanaError.cancelled(item: cancellationSubject))
    }

    /// Whether the promise was rejected by a cancellation: ``cancel()``, `cancelSideEffects(id:)`,
    /// a newer side effect with the same id that cancels those in flight, or a store's shutdown.
    public var isCancelled: Bool {
        guard case .failure(let error) = outcome else { return false }
        return KatanaError.isCancellation(error)
    }

    /// Rejects the promise with `error` unless it has settled or is committed; returns whether it
    /// did. The callbacks run on this thread, so the hooks registered with ``onCancel(_:)`` stop the work.
    @discardableResult
    func cancel(with error: any Error) -> Bool {
        let callbacks: [Callback]? = core.withLock { storage in
            guard case .pending(let callbacks) = storage.phase else { return nil }
            storage.phase = .settled(.failure(error))
            return callbacks
        }
        guard let callbacks else { return false }
        for callback in callbacks {
            callback(.failure(error))
        }
        return true
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

    /// Marks the work as started for good (a state updater about to be applied): from now on,
    /// ``cancel()`` changes nothing. Returns false when the promise has settled already (it was
    /// cancelled while its item waited), so the work must not start.
    func commit() -> Bool {
        core.withLock { storage in
            switch storage.phase {
            case .pending(let callbacks):
                storage.phase = .committed(callbacks)
                return true
            case .committed:
                return true
            case .settled:
                return false
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
