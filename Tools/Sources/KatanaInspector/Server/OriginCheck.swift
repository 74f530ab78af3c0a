import Hummingbird
import HummingbirdWebSocket
import KatanaRecording
import NIOCore

/// Refuses requests that another site's page makes through the user's browser: a request whose
/// `Origin` is not the inspector's own page (a WebSocket is not held back by the browser's
/// same-origin rule, so a page anywhere could otherwise open the live stream), and, when the
/// inspector answers on the loopback address without a token, a request for another host name (a
/// name that a hostile site points at 127.0.0.1 to read the API as its own; see ``LoopbackAddress``).
/// A request with two `Host` headers is refused whatever the address, as HTTP/1.1 says.
struct OriginCheck: RouterMiddleware {
    typealias Context = InspectorRequestContext
    /// Whether the inspector serves without a token (only on the loopback address).
    let loopbackOnly: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority
        // The first Host line becomes the request's authority; a second one stays among the headers.
        if request.headers.contains(where: { $0.name.canonicalName == "host" }) {
            return InspectorServer.json(
                InspectorAPI.error("the request has more than one Host header; send one, naming the address the inspector printed"),
                status: .badRequest
            )
        }
        if let refusal = Self.refusal(host: host, origin: request.headers[.origin], loopbackOnly: loopbackOnly) {
            return InspectorServer.json(InspectorAPI.error(refusal), status: .forbidden)
        }
        return try await next(request, context)
    }

    /// Why a request for `host` (the `Host` header: name and port) from a page at `origin` is
    /// refused; nil when it is not.
    static func refusal(host: String?, origin: String?, loopbackOnly: Bool) -> String? {
        guard let host else { return "the request has no Host header" }
        if loopbackOnly, !LoopbackAddress.isLoopback(authority: host) {
            return "this inspector answers only requests for a loopback address (127.0.0.1, localhost or [::1], with an optional "
                + "port), not \(host): open the address it printed"
        }
        if let origin, !isOwn(origin: origin, host: host) {
            return "requests from another site's page are refused (from \(origin)); open the inspector's own address"
        }
        return nil
    }

    /// Whether `origin` is the inspector's own page (`http://` and the `Host` header, as a browser
    /// sends it), or a WebSocket client that names the same host (such clients send `ws://` and
    /// the host, with or without the port; no browser sends a `ws://` origin).
    static func isOwn(origin: String, host: String) -> Bool {
        origin == "http://\(host)" || origin == "ws://\(host)" || origin == "ws://\(hostName(host))"
    }

    /// The name in a `Host` header, without its port.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex) ..< end])
        }
        return String(host.split(separator: ":", maxSplits: 1).first ?? "")
    }
}
