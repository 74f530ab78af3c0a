import Hummingbird
import HummingbirdWebSocket
import KatanaRecording
import NIOCore

/// Refuses every request that does not carry the inspector's token, when it has one: in the query
/// (`?token=`) or in an `Authorization: Bearer` header.
struct TokenCheck: RouterMiddleware {
    typealias Context = InspectorRequestContext
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { return try await next(request, context) }
        let given = request.uri.queryParameters["token"].map(String.init)
            ?? request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let given, Self.same(given, token) else {
            return InspectorServer.json(
                InspectorAPI.error("this inspector needs its token: open the address katana-inspector printed, which ends with ?token=…"),
                status: .unauthorized
            )
        }
        return try await next(request, context)
    }

    /// Compares in a time that does not depend on where the two first differ.
    static func same(_ given: String, _ token: String) -> Bool {
        let left = Array(given.utf8)
        let right = Array(token.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0 ..< max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0 && left.count == right.count
    }
}
