/// What a ``SideEffect`` can reach of a store whose state is `S` and dependencies `D`.
///
/// The store builds one for itself; tests can build their own with ``init(dependencies:getState:dispatch:)``
/// to run a side effect against fakes.
public struct SideEffectContext<S: State, D: SideEffectDependencyContainer>: AnySideEffectContext, DirectEnqueueing {
    /// What every copy of a context shares: one object, so that the copy a side effect gets (which
    /// knows which side effect it is) costs one retain.
    private final class Core: Sendable {
        let dependencies: D
        let stateGetter: @Sendable () -> S
        let enqueueItem: @Sendable (any Dispatchable, PromiseHandle, OriginStamp, ContextSource) -> Void
        /// Tells the store about work under way elsewhere; nil for a context made outside a store.
        let outsideWork: (@Sendable () -> StoreWorkToken)?
        /// Reads the store's load; nil for a context made outside a store.
        let load: (@Sendable () -> StoreLoad?)?
        /// Adds an observer of the store's side-effect ends; nil for a context made outside a store.
        let observeEnds: (@Sendable (@escaping @Sendable (SideEffectEnd) -> Void) -> Void)?

        init(
            dependencies: D,
            stateGetter: @escaping @Sendable () -> S,
            enqueueItem: @escaping @Sendable (any Dispatchable, PromiseHandle, OriginStamp, ContextSource) -> Void,
            outsideWork: (@Sendable () -> StoreWorkToken)?,
            load: (@Sendable () -> StoreLoad?)?,
            observeEnds: (@Sendable (@escaping @Sendable (SideEffectEnd) -> Void) -> Void)?
        ) {
            self.dependencies = dependencies
            self.stateGetter = stateGetter
            self.enqueueItem = enqueueItem
            self.outsideWork = outsideWork
            self.load = load
            self.observeEnds = observeEnds
        }
    }

    private let core: Core
    /// Where what this copy dispatches comes from (see ``DispatchOrigin``).
    let origin: OriginStamp
    /// Where the dispatch context of what this copy dispatches comes from: captured where it is
    /// dispatched, unless this copy was given one (``withDispatchContext(_:)``).
    private let contextSource: ContextSource

    /// The store's dependency container.
    public var dependencies: D {
        core.dependencies
    }

    /// Creates a context from plain closures, for running side effects outside a store (in tests).
    public init(
        dependencies: D,
        getState: @escaping @Sendable () -> S,
        dispatch: @escaping AnyDispatch
    ) {
        contextSource = .capture
        core = Core(
            dependencies: dependencies,
            stateGetter: getState,
            enqueueItem: { item, promise, _, _ in
                dispatch(item).observe { promise.settle(erased: $0, replacing: item) }
            },
            outsideWork: nil,
            load: nil,
            observeEnds: nil
        )
        origin = .storeWork
    }

    /// Creates the store's own context: items go straight into the store's queue, as the store's
    /// unlabelled work.
    init(
        dependencies: D,
        getState: @escaping @Sendable () -> S,
        enqueue: @escaping @Sendable (any Dispatchable, PromiseHandle, OriginStamp, ContextSource) -> Void,
        outsideWork: @escaping @Sendable () -> StoreWorkToken,
        load: @escaping @Sendable () -> StoreLoad?,
        observeEnds: @escaping @Sendable (@escaping @Sendable (SideEffectEnd) -> Void) -> Void
    ) {
        core = Core(
            dependencies: dependencies, stateGetter: getState, enqueueItem: enqueue, outsideWork: outsideWork, load: load,
            observeEnds: observeEnds
        )
        origin = .storeWork
        contextSource = .capture
    }

    @inline(__always)
    private init(core: Core, origin: OriginStamp, contextSource: ContextSource) {
        self.core = core
        self.origin = origin
        self.contextSource = contextSource
    }

    /// This context, with what it dispatches coming from `origin`. Inlined, so that the side
    /// effects' generic runners make the copy without looking up its type (docs/PERFORMANCE.md,
    /// "Dispatch origins").
    @inline(__always)
    func stamped(_ origin: OriginStamp) -> SideEffectContext {
        SideEffectContext(core: core, origin: origin, contextSource: contextSource)
    }

    /// This context, with what it dispatches carrying `dispatchContext` (a value the store's
    /// ``DispatchContext`` captured, as ``InterceptedItem/currentDispatchContext`` gives it; nil:
    /// none) instead of what the dispatch context would capture where it dispatches: for work that
    /// dispatches on behalf of an item elsewhere (an observer rule on its own queue).
    public func withDispatchContext(_ dispatchContext: (any Sendable)?) -> SideEffectContext {
        SideEffectContext(core: core, origin: origin, contextSource: .given(GivenContext(dispatchContext.map(CapturedContext.init))))
    }

    /// This context, with what it dispatches marked as coming from work labelled `label`:
    /// interceptors read ``DispatchOrigin/storeWork(label:)`` for those items. Labels name pieces
    /// of work (a rule, a job), and each distinct label is kept for the process's lifetime, so
    /// make one per piece of work, not one per dispatch.
    public func labelled(_ label: String) -> SideEffectContext {
        stamped(.storeWork(label: label))
    }

    /// The store's current state.
    public func getState() -> S {
        core.stateGetter()
    }

    /// The store's dependency container, type-erased.
    public var anyDependencies: any SideEffectDependencyContainer {
        core.dependencies
    }

    /// The store's current state, type-erased.
    public func getAnyState() -> any State {
        core.stateGetter()
    }

    /// Dispatches any item; the promise carries its type-erased result.
    @discardableResult
    public func anyDispatch(_ dispatchable: any Dispatchable) -> Promise<any Sendable> {
        let promise = Promise<any Sendable>.pending()
        core.enqueueItem(dispatchable, promise.handle, origin, contextSource)
        return promise
    }

    /// Tells the store that work which may dispatch to it runs elsewhere, until the token ends.
    public func beginOutsideWork() -> StoreWorkToken {
        core.outsideWork?() ?? StoreWorkToken {}
    }

    /// Hands `item` to the store with the promise it must settle.
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle) {
        core.enqueueItem(item, promise, origin, contextSource)
    }

    /// The store's load now; nil for a context made outside a store, or once the store is gone.
    func currentLoad() -> StoreLoad? {
        core.load?()
    }

    /// Adds an observer of the store's side-effect ends; false for a context made outside a store.
    func addEndObserver(_ observer: @escaping @Sendable (SideEffectEnd) -> Void) -> Bool {
        guard let observeEnds = core.observeEnds else { return false }
        observeEnds(observer)
        return true
    }
}

/// What the store's own contexts can do beyond ``AnySideEffectContext``, reached from an
/// existential: copy themselves with another origin, and hand out their state getter typed.
protocol StoreContext: AnySideEffectContext {
    /// This context, with what it dispatches coming from `origin`.
    func stampedContext(_ origin: OriginStamp) -> any AnySideEffectContext

    /// This context, dispatching with `dispatchContext` (see ``SideEffectContext/withDispatchContext(_:)``).
    func givenDispatchContext(_ dispatchContext: (any Sendable)?) -> any AnySideEffectContext

    /// The state getter, when the state is a `T`.
    func typedStateGetter<T: State>(as type: T.Type) -> (@Sendable () -> T)?

    /// The store's load now; nil once the store is gone.
    func currentLoad() -> StoreLoad?

    /// Adds an observer of the store's side-effect ends; false when there is no store to observe.
    func addEndObserver(_ observer: @escaping @Sendable (SideEffectEnd) -> Void) -> Bool
}

extension SideEffectContext: StoreContext {
    func stampedContext(_ origin: OriginStamp) -> any AnySideEffectContext {
        stamped(origin)
    }

    func givenDispatchContext(_ dispatchContext: (any Sendable)?) -> any AnySideEffectContext {
        withDispatchContext(dispatchContext)
    }

    func typedStateGetter<T: State>(as type: T.Type) -> (@Sendable () -> T)? {
        core.stateGetter as? @Sendable () -> T
    }
}
