/// What a side effect (or an interceptor) can reach of the store, with types erased.
public protocol AnySideEffectContext: Sendable {
    /// The store's dependency container.
    var anyDependencies: any SideEffectDependencyContainer { get }

    /// The store's current state.
    func getAnyState() -> any State

    /// Dispatches any item to the store.
    @discardableResult
    func anyDispatch(_ dispatchable: any Dispatchable) -> Promise<any Sendable>

    /// Tells the store that work which may dispatch to it runs elsewhere for a while (an
    /// interceptor's reaction on a queue of its own), so that a shutdown that lets work finish, and
    /// a tool waiting for the store to settle, wait until the returned token ends. A context that
    /// does not belong to a store returns a token that does nothing.
    func beginOutsideWork() -> StoreWorkToken
}

/// A context that can hand an item straight to its store's queue, with the promise to settle.
protocol DirectEnqueueing {
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle)
}

extension AnySideEffectContext {
    /// No store to tell: a token that does nothing (contexts made outside a store, test doubles).
    public func beginOutsideWork() -> StoreWorkToken {
        StoreWorkToken {}
    }

    /// Dispatches a state updater; the promise is fulfilled once the new state is stored.
    @discardableResult
    public func dispatch<T: AnyStateUpdater>(_ dispatchable: T) -> Promise<Void> {
        let promise = Promise<Void>.pending()
        route(dispatchable, settling: promise.handle)
        return promise
    }

    /// Dispatches a side effect; the promise is fulfilled when its body returns.
    @discardableResult
    public func dispatch<T: AnySideEffect>(_ dispatchable: T) -> Promise<Void> {
        let promise = Promise<Void>.pending()
        route(dispatchable, settling: promise.handle)
        return promise
    }

    /// Dispatches a returning side effect; the promise is fulfilled with its value.
    @discardableResult
    public func dispatch<T: ReturningSideEffect>(_ dispatchable: T) -> Promise<T.ReturnValue> {
        let promise = Promise<T.ReturnValue>.pending()
        route(dispatchable, settling: promise.handle)
        return promise
    }

    /// Dispatches an async side effect; the promise is fulfilled with its value.
    @discardableResult
    public func dispatch<T: AsyncSideEffect>(_ dispatchable: T) -> Promise<T.ReturnValue> {
        let promise = Promise<T.ReturnValue>.pending()
        route(dispatchable, settling: promise.handle)
        return promise
    }

    /// This context, with what it dispatches marked as coming from work labelled `label`:
    /// interceptors read ``DispatchOrigin/storeWork(label:)`` for those items (observer rules label
    /// theirs this way). A context that does not belong to a store is returned as it is.
    public func labelled(_ label: String) -> any AnySideEffectContext {
        guard let context = self as? any StoreContext else { return self }
        return context.stampedContext(.storeWork(label: label))
    }

    /// A function that reads the store's state as an `S` without putting it in an existential (no
    /// allocation for a large state, no cast), for code generic over the state type that reads it
    /// on every item (a recording interceptor); nil when this context is not a store's or its
    /// state is not an `S`.
    public func stateReader<S: State>(as type: S.Type) -> (@Sendable () -> S)? {
        (self as? any StoreContext)?.typedStateGetter(as: type)
    }

    /// How much work the store has now (items waiting in its inbox, side effects not yet ended),
    /// for an interceptor that reports it, such as a metrics gauge; nil when this context does not
    /// belong to a store, or the store is gone.
    public var storeLoad: StoreLoad? {
        (self as? any StoreContext)?.currentLoad()
    }

    /// This context, with what it dispatches carrying `dispatchContext` (a value the store's
    /// ``DispatchContext`` captured, as ``InterceptedItem/currentDispatchContext`` gives it; nil:
    /// none) instead of what the dispatch context would capture where it dispatches: for work that
    /// dispatches on behalf of an item elsewhere (an observer rule on its own queue). A context
    /// that does not belong to a store is returned as it is.
    public func withDispatchContext(_ dispatchContext: (any Sendable)?) -> any AnySideEffectContext {
        guard let context = self as? any StoreContext else { return self }
        return context.givenDispatchContext(dispatchContext)
    }

    /// Calls `observer` with the end of every side effect the store runs from now on (see
    /// ``SideEffectEnd``): each side effect its interceptors passed on, once, when its body returns
    /// or throws, or when it is cancelled before its body began. Call it from an interceptor's
    /// ``Interceptor/start(in:)`` (or a closure interceptor's outer closure) to see every end.
    ///
    /// The observer runs on the thread where the side effect ended (its worker, or its task's
    /// thread), before its promise settles; keep it quick and never wait in it. Returns false,
    /// and keeps nothing, when this context does not belong to a store.
    @discardableResult
    public func observeSideEffectEnds(_ observer: @escaping @Sendable (SideEffectEnd) -> Void) -> Bool {
        (self as? any StoreContext)?.addEndObserver(observer) ?? false
    }

    /// Sends `item` to the store and settles `promise` with its outcome, without an intermediate
    /// promise when the context belongs to a store.
    private func route(_ item: any Dispatchable, settling promise: PromiseHandle) {
        if let direct = self as? any DirectEnqueueing {
            direct.enqueue(item, settling: promise)
        } else {
            anyDispatch(item).observe { promise.settle(erased: $0, replacing: item) }
        }
    }
}
