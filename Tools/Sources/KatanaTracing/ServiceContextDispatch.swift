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
    ///
    /// With ``StoreTracing``, a side effect's captured value is its span, not yet open: restoring it
    /// as the side effect's body starts opens the span there, so that it covers the body, from its
    /// start to its end.
    public static var serviceContext: DispatchContext {
        DispatchContext(
            capture: { ServiceContext.current },
            restore: { value, body in ServiceContext.withValue(serviceContext(of: value)) { body() } },
            restoreAsync: { value, body in await ServiceContext.withValue(serviceContext(of: value)) { await body() } }
        )
    }

    /// The `ServiceContext` a captured value stands for: the value itself, or the context of the
    /// side-effect span it is, opened now.
    private static func serviceContext(of value: any Sendable) -> ServiceContext? {
        if let span = value as? SideEffectSpan {
            return span.started()
        }
        return value as? ServiceContext
    }
}
