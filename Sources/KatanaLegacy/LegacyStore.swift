import Katana

/// A Katana 2.x dependency container: one whose initialiser takes the 2.x `dispatch` (`StoreDispatch`).
///
/// Conform a `final` class that keeps its 2.x `init(dispatch:getState:)` to this protocol instead of
/// `SideEffectDependencyContainer`: the store's initialiser is provided on top of it.
@available(*, deprecated, message: "Conform to SideEffectDependencyContainer and take init(dispatch: @escaping AnyDispatch, getState: @escaping GetState)")
public protocol LegacySideEffectDependencyContainer: SideEffectDependencyContainer {
    /// Creates the container with the 2.x dispatch function and the store's state getter.
    init(dispatch: @escaping StoreDispatch, getState: @escaping GetState)
}

@available(*, deprecated, message: "Conform to SideEffectDependencyContainer and take init(dispatch: @escaping AnyDispatch, getState: @escaping GetState)")
extension LegacySideEffectDependencyContainer {
    /// The store's initialiser, forwarding to the 2.x one with a dispatch that drops the promise.
    public init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        let legacy: StoreDispatch = { action in
            _ = dispatch(action)
        }
        self.init(dispatch: legacy, getState: getState)
    }
}

extension Store {
    /// The Katana 2.x store initialiser: middleware instead of interceptors, the dependency container
    /// type, and optionally the first state and the configuration.
    ///
    /// The middleware become interceptors in the same order (see ``middlewareToInterceptor(_:)``).
    @available(*, deprecated, message: "Use Store(interceptors:stateInitializer:configuration:) with StoreInterceptors")
    public convenience init(
        middleware: [StoreMiddleware],
        dependencies: D.Type,
        stateInitializer: @escaping StateInitializer<S> = { S() },
        configuration: Configuration = .init()
    ) {
        self.init(
            interceptors: middleware.map { middlewareToInterceptor($0) },
            stateInitializer: stateInitializer,
            configuration: configuration
        )
    }
}

extension AnyStore {
    /// Adds a Katana 2.x listener, called with no arguments after every handled state updater
    /// (read the store's state for the new value); returns the closure that removes it.
    @available(*, deprecated, message: "Use addListener { oldState, newState in ... } (or addAnyListener)")
    @discardableResult
    public func addListener(_ listener: @escaping @Sendable () -> Void) -> StoreUnsubscribe {
        addAnyListener { _, _ in listener() }
    }
}
