import AsyncHTTPClient
import Foundation

/// The order service's client of the payment service.
///
/// It makes no span and sets no header itself: an `HTTPClient` created after the tracer was
/// bootstrapped opens a client span per request, under `ServiceContext.current` (the side effect's
/// span, where a side effect calls it), and sends its context as a W3C `traceparent` header.
public struct PaymentsClient: Sendable {
    /// What went wrong with a charge.
    public struct Failure: Error, CustomStringConvertible {
        /// Why the charge failed.
        public var description: String
    }

    /// Where the payment service listens (`http://127.0.0.1:8081`); nil when none is configured.
    public let baseURL: String?
    /// The HTTP client the calls go through.
    public let client: HTTPClient

    /// A client of the payment service at `baseURL`, through `client`.
    public init(baseURL: String?, client: HTTPClient) {
        self.baseURL = baseURL
        self.client = client
    }

    /// Has the payment service charge `order`; throws when it cannot be reached or refuses.
    public func charge(_ order: String) async throws {
        guard let baseURL else {
            throw Failure(description: "no payment service is configured: start the order service with --payments URL")
        }
        var request = HTTPClientRequest(url: "\(baseURL)/charges?order=\(order)")
        request.method = .POST
        let response = try await client.execute(request, timeout: .seconds(10))
        guard response.status == .ok else {
            throw Failure(description: "the payment service answered \(response.status.code) for order \(order)")
        }
    }
}
