/// What a side effect (or an interceptor) can reach of the store, with types erased.
public protocol AnySideEffectContext: Sendable {
    /// The store's dependency container.
    var anyDependencies: any SideEffectDependencyContainer { get }

    /// The store's current state.
    func getAnyState() -> any State

    /// Dispatches any item to the store.
    @discardableResult
    func anyDispatch(_ dispatchable: any Dispatchable) -> Promise<any Sendable>
}

/// A context that can hand an item straight to its store's queue, with the promise to settle.
protocol DirectEnqueueing {
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle)
}

extension AnySideEffectContext {
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
    }

    /// Creates the store's own context: items go straight into the store's queue.
    init(
        dependencies: D,
        getState: @escaping @Sendable () -> S,
        enqueue: @escaping @Sendable (any Dispatchable, PromiseHandle) -> Void
    ) {
        self.dependencies = dependencies
        self.stateGetter = getState
        self.enqueueItem = enqueue
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

    /// Hands `item` to the store with the promise it must settle.
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle) {
        enqueueItem(item, promise)
    }
}
