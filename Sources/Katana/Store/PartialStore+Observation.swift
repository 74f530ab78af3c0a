extension PartialStore {
    /// Every state change as an `(old, new)` pair, kept for a slow consumer as `buffering` says.
    ///
    /// As ``stateUpdates``: each call starts a sequence that sees the changes from then on; it ends
    /// when the store is shut down or released, and stops listening when the iterating task stops.
    public func stateUpdates(buffering: StateUpdatesBuffering) -> AsyncStream<(old: S, new: S)> {
        changes(buffering: buffering) { old, new in (old: old, new: new) }
    }

    /// The changes of the value at `path`: an `(old, new)` pair only when a state change leaves a
    /// different value there (changes elsewhere in the state are not reported), kept for a slow
    /// consumer as `buffering` says. Otherwise as ``stateUpdates``.
    ///
    /// Inlinable, so that reading and comparing the value is compiled for the concrete state and
    /// value types.
    @inlinable
    public func stateUpdates<Value: Equatable & Sendable>(
        of path: KeyPath<S, Value> & Sendable,
        buffering: StateUpdatesBuffering = .everyChange
    ) -> AsyncStream<(old: Value, new: Value)> {
        let reader = KeyPathReader(path)
        return changes(buffering: buffering) { old, new in
            let before = reader.read(old)
            let after = reader.read(new)
            return before == after ? nil : (old: before, new: after)
        }
    }

    /// Adds a listener called with the old and new value at `path` only when a state change leaves
    /// a different value there. Otherwise as ``addListener(_:)``: in order, never concurrently, on
    /// the listener executor, and an updater's promise settles once it has been called.
    ///
    /// Inlinable, so that reading and comparing the value is compiled for the concrete state and
    /// value types.
    @inlinable @discardableResult
    public func addListener<Value: Equatable & Sendable>(
        of path: KeyPath<S, Value> & Sendable,
        _ listener: @escaping @Sendable (_ oldValue: Value, _ newValue: Value) -> Void
    ) -> StoreUnsubscribe {
        let reader = KeyPathReader(path)
        return addListener { old, new in
            let before = reader.read(old)
            let after = reader.read(new)
            if before != after {
                listener(before, after)
            }
        }
    }

    /// A sequence of what `element` makes of each state change (nothing when it returns nil), kept
    /// as `buffering` says; it ends when the store is shut down or released.
    @usableFromInline
    func changes<Element: Sendable>(
        buffering: StateUpdatesBuffering,
        _ element: @escaping @Sendable (_ old: S, _ new: S) -> Element?
    ) -> AsyncStream<Element> {
        let engine = self.engine
        return AsyncStream(bufferingPolicy: buffering.policy(for: Element.self)) { continuation in
            let unsubscribe = engine.addListener(
                { old, new in
                    if let value = element(old, new) {
                        continuation.yield(value)
                    }
                },
                isWaitedFor: false,
                onStop: { continuation.finish() }
            )
            continuation.onTermination = { _ in unsubscribe() }
        }
    }
}
