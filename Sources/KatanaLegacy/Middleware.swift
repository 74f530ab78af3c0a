import Katana

/// The Katana 2.x dispatch function handed to side effects, middleware and dependency containers.
///
/// It takes any item, not only 2.x actions, so legacy code can dispatch the modern updaters and side
/// effects its actions are being migrated to; the item's promise is dropped, as in 2.x.
@available(*, deprecated, message: "Use AnyDispatch, or the dispatch methods of SideEffectContext")
public typealias StoreDispatch = @Sendable (_ action: any Dispatchable) -> Void

/// Passes an item on to the next middleware (or, after the last one, to the store).
@available(*, deprecated, message: "Use StoreInterceptorNext")
public typealias StoreMiddlewareNext = @Sendable (_ dispatchable: any Dispatchable) -> Void

/// A Katana 2.x middleware: it sees every dispatched item and decides whether (and what) to pass on.
///
/// The outer closure is called once, when the store starts; the closure it returns is given the next
/// step; the innermost closure runs for every item. Not calling `next` blocks the item; calling it
/// with another item replaces it.
@available(*, deprecated, message: "Write a StoreInterceptor, or bridge with middlewareToInterceptor(_:)")
public typealias StoreMiddleware = @Sendable (_ getState: @escaping GetState, _ dispatch: @escaping StoreDispatch)
    -> @Sendable (_ next: @escaping StoreMiddlewareNext) -> @Sendable (_ dispatchable: any Dispatchable) -> Void

/// Turns a Katana 2.x middleware into an interceptor, so it can be installed in a modern store.
///
/// Order is kept: interceptors made from a list of middleware run in the list's order, mixed freely
/// with modern interceptors. An error thrown further down the chain while the middleware passes the
/// item on rejects the item's promise, as it would without the middleware in between.
///
/// As in 2.x, the middleware is applied once per store, when the store starts: its outer and middle
/// closures run then, and only the closure they return runs for every item.
@available(*, deprecated, message: "Rewrite the middleware as a StoreInterceptor")
public func middlewareToInterceptor(_ middleware: @escaping StoreMiddleware) -> StoreInterceptor {
    { context in
        let getState: GetState = { context.getAnyState() }
        let prepared = middleware(getState, legacyDispatch(through: context))
        return { next in
            // The middleware is joined to `next` here, once per store as in 2.x, not per item: an
            // item then costs no allocation of the bridge's own.
            let legacyNext: StoreMiddlewareNext = { passed in
                do {
                    try next(passed)
                } catch {
                    // Carried out by the run in progress on this thread (the middleware's closures
                    // cannot throw); a `next` called later or from another thread has no run to
                    // report to, and its error is dropped (see MiddlewareRun).
                    MiddlewareRun.report(error)
                }
            }
            let handle = prepared(legacyNext)
            return { item in
                if let error = MiddlewareRun.capturingError(of: { handle(item) }) {
                    throw error
                }
            }
        }
    }
}
