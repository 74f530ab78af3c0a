import AsyncHTTPClient
import Foundation
import Hummingbird
import Katana
import KatanaTracing

/// The payment service: each `POST /charges` dispatches a ``Charge`` into its store.
public enum Payments {
    /// What the payment service has charged.
    public struct Ledger: State {
        /// The orders charged, in the order the charges came.
        public var charged: [String] = []
        public init() {}
    }

    /// Records a charge for an order.
    public struct Charge: StateUpdater {
        /// The order charged.
        public var order: String
        public func updateState(_ state: inout Ledger) { state.charged.append(order) }
    }

    /// The service's store, traced: each item's span is a child of the request's.
    public static func makeStore() -> Store<Ledger, EmptySideEffectDependencyContainer> {
        Store(interceptors: Interceptors { StoreTracing() }, configuration: .init(dispatchContext: .serviceContext))
    }

    /// The service's routes: `POST /charges?order=ID` charges the order and answers "charged ID".
    /// The request's span comes from Hummingbird's tracing middleware, which continues the
    /// caller's trace from its `traceparent` header.
    public static func router(store: Store<Ledger, EmptySideEffectDependencyContainer>) -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(TracingMiddleware())
        router.post("charges") { request, _ -> String in
            guard let order = request.uri.queryParameters.get("order") else {
                throw HTTPError(.badRequest, message: "POST /charges needs ?order=ID")
            }
            try await store.dispatch(Charge(order: order)).value
            return "charged \(order)"
        }
        return router
    }
}
