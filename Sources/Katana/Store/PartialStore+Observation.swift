extension PartialStore {
    /// Every state change as an `(old, new)` pair, kept for a slow consumer as `buffering` says.
    ///
    /// As ``stateUpdates``: each call starts a sequence that sees the changes from then on; it ends
    /// when the store is shut down or released, and stops listening when the iterating task stops.
    public func stateUpdates(buffering: StateUpdatesBuffering) -> AsyncStream<(old: S, new: S)> {
        let engine = self.engine
        return AsyncStream(bufferingPolicy: buffering.policy(for: (old: S, new: S).self)) { continuation in
            let unsubscribe = engine.addListener(
                { old, new in continuation.yield((old: old, new: new)) },
                isWaitedFor: false,
                onStop: { continuation.finish() }
            )
            continuation.onTermination = { _ in unsubscribe() }
        }
    }

    /// The changes of the value at `path`: an `(old, new)` pair only when a state change leaves a
    /// different value there (changes elsewhere in the state are not reported), kept for a slow
    /// consumer as `buffering` says. Otherwise as ``stateUpdates``.
    public func stateUpdates<Value: Equatable & Sendable>(
        of path: KeyPath<S, Value> & Sendable,
        buffering: StateUpdatesBuffering = .everyChange
    ) -> AsyncStream<(old: Value, new: Value)> {
        let engine = self.engine
        return AsyncStream(bufferingPolicy: buffering.policy(for: (old: Value, new: Value).self)) { continuation in
            let unsubscribe = engine.addListener(
                { old, new in
                    let before = old[keyPath: path]
                    let after = new[keyPath: path]
                    if before != after {
                        continuation.yield((old: before, new: after))
                    }
                },
                isWaitedFor: false,
                onStop: { continuation.finish() }
            )
            continuation.onTermination = { _ in unsubscribe() }
        }
    }

    /// Adds a listener called with the old and new value at `path` only when a state change leaves
    /// a different value there. Otherwise as ``addListener(_:)``: in order, never concurrently, on
    /// the listener executor, and an updater's promise settles once it has been called.
    @discardableResult
    public func addListener<Value: Equatable & Sendable>(
        of path: KeyPath<S, Value> & Sendable,
        _ listener: @escaping @Sendable (_ oldValue: Value, _ newValue: Value) -> Void
    ) -> StoreUnsubscribe {
        engine.addListener { old, new in
            let before = old[keyPath: path]
            let after = new[keyPath: path]
            if before != after {
                listener(before, after)
            }
        }
    }
}
