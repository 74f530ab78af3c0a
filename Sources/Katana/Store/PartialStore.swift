/// A store whose state type is known but whose dependency type is not: what code that only reads
/// the state, listens to it and dispatches needs. Every ``Store`` is one.
///
/// `open`, as in Katana: an app may subclass its store and override ``state``, the `dispatch`
/// methods and the listener methods (a call through a `PartialStore` or ``AnyStore`` reference
/// reaches the override).
open class PartialStore<S: State>: AnyStore, @unchecked Sendable {
    // @unchecked: the only stored property is a constant reference to the engine, which guards
    // its own mutable state (see StoreEngine). A subclass that adds mutable state guards it itself.
    let engine: StoreEngine<S>

    /// A closure that makes the first state of a store of `T`.
    public typealias StateInitializer<T: State> = @Sendable () -> T

    // @usableFromInline, not internal: a subclass in another module inherits `Store`'s convenience
    // initialisers only when every designated initialiser up the chain is visible to it.
    @usableFromInline
    init(engine: StoreEngine<S>) {
        self.engine = engine
        engine.adopt(self)
    }

    deinit {
        engine.storeReleased()
    }

    /// The current state.
    ///
    /// Reading it before the store is ready (see ``isReady``) is a programming error and stops the
    /// process, as in Katana. With the default configuration the store is ready as soon as its
    /// initialiser returns. Reading it from inside one of this store's own state updaters is the
    /// same kind of error: an updater changes the state in place, and uses the state it is given.
    /// A read waits for at most the updater running at that moment.
    open var state: S {
        engine.readState()
    }

    /// The current state, type-erased.
    open var anyState: any State {
        state
    }

    /// Whether the store has finished starting (dependencies, state, interceptors) and handles items.
    public var isReady: Bool {
        engine.isReady
    }

    /// Adds a listener called with `(old, new)` after every handled state updater, in order and
    /// never concurrently, on the configuration's listener executor. An updater's promise settles
    /// once every listener has been called with its change, as in Katana.
    @discardableResult
    open func addListener(_ listener: @escaping StoreListener<S>) -> StoreUnsubscribe {
        engine.addListener(listener)
    }

    /// Adds a type-erased listener; see ``addListener(_:)``.
    @discardableResult
    open func addAnyListener(_ listener: @escaping AnyStoreListener) -> StoreUnsubscribe {
        engine.addListener { old, new in listener(old, new) }
    }

    /// Every state change as an `(old, new)` pair, for code written with async/await.
    ///
    /// Each access starts a new sequence that sees the changes from then on; it ends when the
    /// store is shut down or released, and stops listening when the iterating task stops. Promises do not wait
    /// for a sequence's consumer.
    public var stateUpdates: AsyncStream<(old: S, new: S)> {
        stateUpdates(buffering: .everyChange)
    }

    /// Dispatches a state updater; the promise is fulfilled once the new state has been stored and
    /// every listener has been called with the change.
    ///
    /// Updaters run one at a time on the store's serial queue, in dispatch order.
    @discardableResult
    open func dispatch<T: AnyStateUpdater>(_ dispatchable: T) -> Promise<Void> {
        let item: any Dispatchable = dispatchable
        let promise = Promise<Void>.pending(dispatching: item, toEngineNumbered: engine.directoryNumber)
        engine.enqueue(item, settling: promise.handle)
        return promise
    }

    /// Dispatches a side effect; the promise is fulfilled when its body returns and rejected with
    /// the error it throws. Side effects run concurrently.
    @discardableResult
    open func dispatch<T: AnySideEffect>(_ dispatchable: T) -> Promise<Void> {
        let item: any Dispatchable = dispatchable
        let promise = Promise<Void>.pending(dispatching: item, toEngineNumbered: engine.directoryNumber)
        engine.enqueueSynchronousSideEffectCapturing(item, settling: promise.handle)
        return promise
    }

    /// Dispatches a returning side effect; the promise is fulfilled with the value it returns.
    @discardableResult
    open func dispatch<T: ReturningSideEffect>(_ dispatchable: T) -> Promise<T.ReturnValue> {
        let item: any Dispatchable = dispatchable
        let promise = Promise<T.ReturnValue>.pending(dispatching: item, toEngineNumbered: engine.directoryNumber)
        engine.enqueueSynchronousSideEffectCapturing(item, settling: promise.handle)
        return promise
    }

    /// Dispatches an async side effect (run as a task); the promise is fulfilled with its value.
    @discardableResult
    open func dispatch<T: AsyncSideEffect>(_ dispatchable: T) -> Promise<T.ReturnValue> {
        let item: any Dispatchable = dispatchable
        let promise = Promise<T.ReturnValue>.pending(dispatching: item, toEngineNumbered: engine.directoryNumber)
        engine.enqueueStartingWhenIdle(item, settling: promise.handle)
        return promise
    }

    /// Dispatches any item; the promise carries its type-erased result (`()` for updaters).
    @discardableResult
    open func anyDispatch(_ dispatchable: any Dispatchable) -> Promise<any Sendable> {
        let promise = Promise<any Sendable>.pending(dispatching: dispatchable, toEngineNumbered: engine.directoryNumber)
        engine.enqueue(dispatchable, settling: promise.handle)
        return promise
    }
}
