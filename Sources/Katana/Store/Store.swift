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
        let parts = StoreParts<S, D>(dependenciesInitializer: dependenciesInitializer, configuration: configuration)
        dependencies = parts.dependencies
        super.init(engine: parts.engine)
        parts.start(interceptors: Interceptors(interceptors), stateInitializer: stateInitializer, configuration: configuration)
    }

    /// A store whose interceptors are composed with ``Interceptors`` (interceptor values and
    /// closure interceptors, mixed); otherwise as ``init(interceptors:stateInitializer:dependenciesInitializer:configuration:)``.
    public init(
        interceptors: Interceptors,
        stateInitializer: @escaping StateInitializer<S> = { S() },
        dependenciesInitializer: DependenciesInitializer = { D(dispatch: $0, getState: $1) },
        configuration: Configuration = .init()
    ) {
        let parts = StoreParts<S, D>(dependenciesInitializer: dependenciesInitializer, configuration: configuration)
        dependencies = parts.dependencies
        super.init(engine: parts.engine)
        parts.start(interceptors: interceptors, stateInitializer: stateInitializer, configuration: configuration)
    }
}
