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

/// What a ``SideEffect`` can reach of a store whose state is `S` and dependencies `D`.
///
/// The store builds one for itself; tests can build their own with ``init(dependencies:getState:dispatch:)``
/// to run a side effect against fakes.
public struct SideEffectContext<S: State, D: SideEffectDependencyContainer>: AnySideEffectContext, DirectEnqueueing {
    /// The store's dependency container.
    public let dependencies: D
    private let stateGetter: @Sendable () -> S
    private let enqueueItem: @Sendable (any Dispatchable, PromiseHandle) -> Void
    /// Tells the store about work under way elsewhere; nil for a context made outside a store.
    private let outsideWork: (@Sendable () -> StoreWorkToken)?

    /// Creates a context from plain closures, for running side effects outside a store (in tests).
    public init(
        dependencies: D,
        getState: @escaping @Sendable () -> S,
        dispatch: @escaping AnyDispatch
    ) {
        self.dependencies = dependencies
        self.stateGetter = getState
        self.enqueueItem = { item, promise in
            dispatch(item).observe { promise.settle(erased: $0, replacing: item) }
        }
        self.outsideWork = nil
    }

    /// Creates the store's own context: items go straight into the store's queue.
    init(
        dependencies: D,
        getState: @escaping @Sendable () -> S,
        enqueue: @escaping @Sendable (any Dispatchable, PromiseHandle) -> Void,
        outsideWork: @escaping @Sendable () -> StoreWorkToken
    ) {
        self.dependencies = dependencies
        self.stateGetter = getState
        self.enqueueItem = enqueue
        self.outsideWork = outsideWork
    }

    /// The store's current state.
    public func getState() -> S {
        stateGetter()
    }

    /// The store's dependency container, type-erased.
    public var anyDependencies: any SideEffectDependencyContainer {
        dependencies
    }

    /// The store's current state, type-erased.
    public func getAnyState() -> any State {
        stateGetter()
    }

    /// Dispatches any item; the promise carries its type-erased result.
    @discardableResult
    public func anyDispatch(_ dispatchable: any Dispatchable) -> Promise<any Sendable> {
        let promise = Promise<any Sendable>.pending()
        enqueueItem(dispatchable, promise.handle)
        return promise
    }

    /// Tells the store that work which may dispatch to it runs elsewhere, until the token ends.
    public func beginOutsideWork() -> StoreWorkToken {
        outsideWork?() ?? StoreWorkToken {}
    }

    /// Hands `item` to the store with the promise it must settle.
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle) {
        enqueueItem(item, promise)
    }
}
