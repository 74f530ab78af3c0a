import Dispatch

/// The single place that holds an application's state and handles everything dispatched to it.
///
/// State updaters change the state one at a time, in order, on a serial queue; side effects run
/// concurrently with access to the store's dependencies; interceptors see every item first;
/// listeners hear about every change. docs/StoreAndThreading.md gives the threading defaults.
open class Store<S: State, D: SideEffectDependencyContainer>: PartialStore<S>, @unchecked Sendable {
    // @unchecked: adds only a constant (`dependencies`, itself Sendable) to PartialStore.

    /// Creates the dependency container, given closures to dispatch and to read the state.
    public typealias DependenciesInitializer = (_ dispatch: @escaping AnyDispatch, _ getState: @escaping GetState) -> D

    /// The dependency container handed to every side effect.
    public let dependencies: D

    /// A store with no interceptors, the state's default value and default dependencies.
    public convenience init() {
        self.init(interceptors: [])
    }

    /// A store with the given interceptors, the state's default value and default dependencies.
    public convenience init(interceptors: [StoreInterceptor]) {
        self.init(interceptors: interceptors, stateInitializer: { S() })
    }

    /// A store whose first state comes from `stateInitializer`, with default dependencies.
    public convenience init(
        interceptors: [StoreInterceptor],
        stateInitializer: @escaping StateInitializer<S>,
        configuration: Configuration = .init()
    ) {
        self.init(
            interceptors: interceptors,
            stateInitializer: stateInitializer,
            dependenciesInitializer: { D(dispatch: $0, getState: $1) },
            configuration: configuration
        )
    }

    /// The designated initialiser.
    ///
    /// Start-up happens in this order: the dependencies are created (now), the state initializer
    /// runs (on the configuration's state-initializer executor), the interceptors are initialised,
    /// and the store becomes ready. Items dispatched before that wait and are handled afterwards,
    /// in order. With the default configuration all of it happens before this initialiser returns.
    public init(
        interceptors: [StoreInterceptor],
        stateInitializer: @escaping StateInitializer<S>,
        dependenciesInitializer: DependenciesInitializer,
        configuration: Configuration = .init()
    ) {
        let engine = StoreEngine<S>(
            label: "Katana.Store<\(typeName(S.self))>",
            listenerExecutor: configuration.listenersAsyncProvider,
            tracer: configuration.signpostLogger,
            releasesMemoryAfterBursts: configuration.releasesMemoryAfterBursts,
            asyncSideEffectTaskStarter: configuration.asyncSideEffectTaskStarter,
            workerThreads: configuration.workerThreads
        )
        let enqueue: @Sendable (any Dispatchable, PromiseHandle) -> Void = { [weak engine] item, promise in
            guard let engine else {
                promise.settle(erased: .failure(KatanaError.storeDeallocated(item: typeName(of: item))), replacing: item)
                return
            }
            engine.enqueueFromStoreWork(item, settling: promise)
        }
        let published = engine.published
        let getState: @Sendable () -> S = { [weak engine] in
            if let engine {
                return engine.readState()
            }
            // The store is gone: its last state, if it ever had one.
            guard let cell = published.withLock({ $0 }) else {
                StorePrecondition.stateReadBeforeReady()
            }
            return cell.read()
        }
        let anyDispatch: AnyDispatch = { item in
            let promise = Promise<any Sendable>.pending()
            enqueue(item, promise.handle)
            return promise
        }
        dependencies = dependenciesInitializer(anyDispatch, { getState() })
        super.init(engine: engine)
        let outsideWork: @Sendable () -> StoreWorkToken = { [weak engine] in
            guard let engine else { return StoreWorkToken {} }
            return engine.beginOutsideWork()
        }
        let context = SideEffectContext<S, D>(dependencies: dependencies, getState: getState, enqueue: enqueue, outsideWork: outsideWork)
        engine.start(
            stateInitializer: stateInitializer,
            interceptors: interceptors,
            context: context,
            executor: configuration.stateInitializerAsyncProvider,
            callsListenersWhenReady: configuration.callsListenersWhenReady
        )
    }
}
