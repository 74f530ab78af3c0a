import Dispatch

/// What both of `Store`'s designated initialisers build: the engine, the dependencies (made with
/// closures that reach the engine weakly), and the start-up that follows `super.init`.
struct StoreParts<S: State, D: SideEffectDependencyContainer> {
    let engine: StoreEngine<S>
    let dependencies: D
    private let enqueue: @Sendable (any Dispatchable, PromiseHandle, OriginStamp, ContextSource) -> Void
    private let getState: @Sendable () -> S

    init(dependenciesInitializer: Store<S, D>.DependenciesInitializer, configuration: Store<S, D>.Configuration) {
        let engine = StoreEngine<S>(
            label: "Katana.Store<\(typeName(S.self))>",
            listenerExecutor: configuration.listenersAsyncProvider,
            tracer: configuration.signpostLogger,
            releasesMemoryAfterBursts: configuration.releasesMemoryAfterBursts,
            asyncSideEffectTaskStarter: configuration.asyncSideEffectTaskStarter,
            workerThreads: configuration.workerThreads,
            threadProbe: configuration.threadProbe,
            dispatchContext: configuration.dispatchContext
        )
        let enqueue: @Sendable (any Dispatchable, PromiseHandle, OriginStamp, ContextSource) -> Void = { [weak engine] item, promise, origin, context in
            guard let engine else {
                promise.settle(erased: .failure(KatanaError.storeDeallocated(item: typeName(of: item))), replacing: item)
                return
            }
            engine.enqueueFromStoreWork(item, settling: promise, origin: origin, context: context)
        }
        // Reads the state cell without the engine (no weak reference to load and release): the
        // same cell the engine reads, which outlives the engine when the store is gone.
        let published = engine.published
        let getState: @Sendable () -> S = {
            guard let cell = published.withLock({ $0 }) else {
                StorePrecondition.stateReadBeforeReady()
            }
            return cell.read()
        }
        let anyDispatch: AnyDispatch = { item in
            let promise = Promise<any Sendable>.pending()
            enqueue(item, promise.handle, .storeWork, .capture)
            return promise
        }
        self.engine = engine
        self.enqueue = enqueue
        self.getState = getState
        dependencies = dependenciesInitializer(anyDispatch, { getState() })
    }

    /// Starts the engine (state initializer, interceptors, readiness), once the store exists.
    func start(interceptors: Interceptors, stateInitializer: @escaping @Sendable () -> S, configuration: Store<S, D>.Configuration) {
        let outsideWork: @Sendable () -> StoreWorkToken = { [weak engine] in
            guard let engine else { return StoreWorkToken {} }
            return engine.beginOutsideWork()
        }
        let load: @Sendable () -> StoreLoad? = { [weak engine] in engine?.load() }
        let observeEnds: @Sendable (@escaping @Sendable (SideEffectEnd) -> Void) -> Void = { [weak engine] observer in
            engine?.sideEffectEnds.add(observer)
        }
        let context = SideEffectContext<S, D>(
            dependencies: dependencies, getState: getState, enqueue: enqueue, outsideWork: outsideWork, load: load,
            observeEnds: observeEnds
        )
        engine.start(
            stateInitializer: stateInitializer,
            interceptors: interceptors,
            context: context,
            executor: configuration.stateInitializerAsyncProvider,
            callsListenersWhenReady: configuration.callsListenersWhenReady
        )
    }
}
