import AsyncHTTPClient
import Foundation
import Hummingbird
import Katana
import KatanaTracing

/// The order service: each `POST /orders` dispatches a ``PlaceOrder``, an async side effect that
/// reserves the order, has the payment service charge it over HTTP, and confirms it.
public enum Orders {
    /// The orders reserved and confirmed.
    public struct Book: State {
        /// Orders reserved, not yet confirmed.
        public var reserved: Set<String> = []
        /// Orders charged and confirmed.
        public var confirmed: Set<String> = []
        public init() {}
    }

    /// Reserves an order.
    public struct Reserve: StateUpdater {
        /// The order reserved.
        public var order: String
        public func updateState(_ state: inout Book) { state.reserved.insert(order) }
    }

    /// Confirms a charged order.
    public struct Confirm: StateUpdater {
        /// The order confirmed.
        public var order: String
        public func updateState(_ state: inout Book) {
            state.reserved.remove(order)
            state.confirmed.insert(order)
        }
    }

    /// Places an order: reserve, charge it with the payment service, confirm. The call to the
    /// payment service runs inside this side effect's span, so the HTTP client's span (and the
    /// `traceparent` header it sends) continues the trace of the request that placed the order.
    public struct PlaceOrder: AsyncSideEffect {
        /// The order placed.
        public var order: String
        public func sideEffect(_ context: SideEffectContext<Book, Dependencies>) async throws {
            try await context.dispatch(Reserve(order: order)).value
            try await context.dependencies.payments.charge(order)
            try await context.dispatch(Confirm(order: order)).value
        }
    }

    /// What the order service's side effects use: the payment service's client.
    public final class Dependencies: SideEffectDependencyContainer {
        /// The payment service.
        public let payments: PaymentsClient

        /// Dependencies whose payment service is `payments`.
        public init(payments: PaymentsClient) {
            self.payments = payments
        }

        /// Dependencies with no payment service: every charge fails, saying so.
        public convenience init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
            self.init(payments: PaymentsClient(baseURL: nil, client: .shared))
        }
    }

    /// The service's store, traced, whose side effects charge through `payments`.
    public static func makeStore(payments: PaymentsClient) -> Store<Book, Dependencies> {
        Store(
            interceptors: Interceptors { StoreTracing() },
            dependenciesInitializer: { _, _ in Dependencies(payments: payments) },
            configuration: .init(dispatchContext: .serviceContext)
        )
    }

    /// The service's routes: `POST /orders?id=ID` places the order and answers "placed ID", or
    /// 502 with the reason when the payment service could not charge it.
    public static func router(store: Store<Book, Dependencies>) -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(TracingMiddleware())
        router.post("orders") { request, _ -> String in
            guard let order = request.uri.queryParameters.get("id") else {
                throw HTTPError(.badRequest, message: "POST /orders needs ?id=ID")
            }
            do {
                try await store.dispatch(PlaceOrder(order: order)).value
            } catch {
                throw HTTPError(.badGateway, message: "order \(order) not placed: \(error)")
            }
            return "placed \(order)"
        }
        return router
    }
}
