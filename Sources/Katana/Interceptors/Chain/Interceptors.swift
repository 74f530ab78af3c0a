/// A store's interceptors, composed into one chain: ``Interceptor`` values and closure
/// interceptors (``StoreInterceptor``), in the order written.
///
/// ```swift
/// let interceptors = Interceptors {
///     AuditTrail(audit: audit)
///     if configuration.logs { DispatchableLogger.interceptor() }
///     ObserverInterceptor.observe { OnDispatch(Login.self) { _, _, _ in LoadProfile() } }
/// }
/// let store = Store<AppState, AppDependencies>(interceptors: interceptors)
/// ```
///
/// Each store given the value starts a copy of its own: every interceptor's
/// ``Interceptor/start(in:)``, in order, then each is joined to the ones after it, once.
public struct Interceptors: Sendable {
    /// Starts a copy of the chain for one store; what it returns joins the copy to what follows it
    /// and returns the chain's entry.
    @usableFromInline
    let start: @Sendable (any AnySideEffectContext) -> @Sendable (InterceptorNext) -> InterceptorNext

    /// Whether the chain has no interceptor at all (the store then runs none).
    @usableFromInline
    let isEmpty: Bool

    /// The interceptors the block lists, in order.
    @inlinable
    public init<Chain: Interceptor>(@InterceptorsBuilder _ interceptors: () -> Chain) {
        self.init(interceptors())
    }

    /// A chain of one interceptor (which may itself be a composition).
    @inlinable
    public init<Chain: Interceptor>(_ interceptor: Chain) {
        self.init(interceptor, isEmpty: Chain.self == Empty.self)
    }

    /// Katana's closure interceptors, in the order given.
    public init(_ interceptors: [StoreInterceptor]) {
        self.init(Closures(interceptors), isEmpty: interceptors.isEmpty)
    }

    @inlinable
    init<Chain: Interceptor>(_ interceptor: Chain, isEmpty: Bool) {
        self.isEmpty = isEmpty
        start = { context in
            var chain = interceptor
            chain.start(in: context)
            let started = chain
            return { next in started.connect(to: next) }
        }
    }
}
