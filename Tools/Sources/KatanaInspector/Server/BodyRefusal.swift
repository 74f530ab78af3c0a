import Hummingbird
import HummingbirdWebSocket

/// Answers `413` to a request that says it has a body (a `Content-Length` above 0 or a
/// `Transfer-Encoding`): every request the inspector answers is a `GET` without one. The
/// connection is then closed (``UnreadBodyClose``) rather than read to the body's end, so a client
/// cannot hold it open by trickling in the 2 GB it announced. A live-stream upgrade refused this
/// way is answered `400`, as any refused upgrade is.
struct BodyRefusal: RouterMiddleware {
    typealias Context = InspectorRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let length = request.headers[.contentLength]
        guard (length == nil || length == "0"), request.headers[.transferEncoding] == nil else {
            return InspectorServer.json(
                InspectorAPI.error("the inspector takes no request body: send a GET without Content-Length or Transfer-Encoding"),
                status: .contentTooLarge
            )
        }
        return try await next(request, context)
    }
}
