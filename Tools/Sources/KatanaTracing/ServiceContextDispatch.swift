import Katana
import Tracing

extension DispatchContext {
    /// The dispatch context of a traced service: what an item carries is the `ServiceContext` of
    /// the code that dispatched it (`ServiceContext.current`, which a request handler's span sets),
    /// and a side effect runs with it as `ServiceContext.current`, so that its spans, its logs and
    /// what it dispatches belong to the same trace.
    ///
    /// ```swift
    /// let store = Store<AppState, AppDependencies>(
    ///     interceptors: Interceptors { StoreTracing() },
    ///     configuration: .init(dispatchContext: .serviceContext)
    /// )
    /// ```
    public static var serviceContext: DispatchContext {
        DispatchContext(
            capture: { ServiceContext.current },
            restore: { value, body in ServiceContext.withValue(value as? ServiceContext) { body() } },
            restoreAsync: { value, body in await ServiceContext.withValue(value as? ServiceContext) { await body() } }
        )
    }
}
