import Hummingbird
import HummingbirdWebSocket
import KatanaRecording
import NIOCore

/// Refuses every request that does not carry the inspector's token, when it has one: in the query
/// (`?token=`) or in an `Authorization: Bearer` header (the scheme in any case). A request that
/// carries it more than once, unless every copy is the same single query value and header, is
/// refused as ambiguous: which copy would count is not for a server to guess.
struct TokenCheck: RouterMiddleware {
    typealias Context = InspectorRequestContext
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { return try await next(request, context) }
        let inQuery = request.uri.queryParameters[values: "token"].map(String.init)
        let inHeaders = request.headers[values: .authorization].compactMap(Self.bearerToken)
        let given = inQuery + inHeaders
        if inQuery.count > 1 || Set(given).count > 1 {
            return InspectorServer.json(
                InspectorAPI.error(
                    "the request carries the token more than once (\(inQuery.count) in the query, \(inHeaders.count) in an Authorization "
                        + "header), with values that may differ: send it once, as ?token= or as Authorization: Bearer"
                ),
                status: .badRequest
            )
        }
        guard let first = given.first, Self.same(first, token) else {
            return InspectorServer.json(
                InspectorAPI.error(
                    "this inspector needs its token: open the address katana-inspector printed, which ends with ?token=…, "
                        + "or send Authorization: Bearer with it"
                ),
                status: .unauthorized
            )
        }
        return try await next(request, context)
    }

    /// The token in an `Authorization` header's value, when its scheme is Bearer in any case
    /// (as HTTP's schemes are), however many spaces follow it; nil for another scheme.
    static func bearerToken(_ value: String) -> String? {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let trimmed = value.drop(while: isSpace)
        guard let end = trimmed.firstIndex(where: isSpace), trimmed[..<end].lowercased() == "bearer" else { return nil }
        let credentials = trimmed[end...].drop(while: isSpace)
        let token = String(credentials.reversed().drop(while: isSpace).reversed())
        return token.isEmpty ? nil : token
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
