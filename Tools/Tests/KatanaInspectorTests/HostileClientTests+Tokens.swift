import Foundation
@testable import KatanaInspector
import KatanaTestSupport
import Testing

/// The token: long enough not to be guessed, made by the inspector when asked, read from a Bearer
/// header in any case, and refused when a request carries two that could disagree.
extension HostileClientTests {
    static let token = "0123456789abcdef-ghij"

    @Test func aShortTokenIsRefusedWithWhatToDoInstead() throws {
        for short in ["a", "s3cret", "0123456789abcde"] {
            #expect(throws: InspectorError.invalidToken) { try InspectorConfiguration(host: "0.0.0.0", token: short).validate() }
        }
        try InspectorConfiguration(host: "0.0.0.0", token: "0123456789abcdef").validate()
        let advice = InspectorError.invalidToken.description
        #expect(advice.contains("16 to 256"))
        #expect(advice.contains("--token auto"))
        #expect(advice.contains("InspectorConfiguration.generatedToken()"))
    }

    @Test func aGeneratedTokenIsLongRandomAndFitsAURL() throws {
        let tokens = (0 ..< 20).map { _ in InspectorConfiguration.generatedToken() }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.count == 32)
            #expect(token.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" })
            try InspectorConfiguration(host: "0.0.0.0", token: token).validate()
        }
    }

    @Test func theBearerSchemeIsReadInAnyCaseWithSpacesAfterIt() async throws {
        try await Self.withServer(InspectorConfiguration(port: 0, token: Self.token)) { server in
            for header in ["Bearer \(Self.token)", "bearer \(Self.token)", "BEARER \(Self.token)", "bEaReR    \(Self.token)"] {
                let status = try await Self.status(server, "/api/summary", "Authorization: \(header)")
                #expect(status == "HTTP/1.1 200 OK", "\(header)")
            }
            for header in ["Bearer wrong-but-long-enough-0", "Basic \(Self.token)", "Bearer", "Bearer\(Self.token)", Self.token] {
                let status = try await Self.status(server, "/api/summary", "Authorization: \(header)")
                #expect(status == "HTTP/1.1 401 Unauthorized", "\(header)")
            }
        }
    }

    @Test func aRequestCarryingTheTokenTwiceIsRefusedUnlessBothAgree() async throws {
        try await Self.withServer(InspectorConfiguration(port: 0, token: Self.token)) { server in
            let right = Self.token
            let wrong = "wrong-but-long-enough-0"
            let ambiguous = [
                ("/api/summary?token=\(right)&token=\(wrong)", ""), ("/api/summary?token=\(wrong)&token=\(right)", ""),
                ("/api/summary?token=\(right)&token=\(right)", ""), ("/api/summary?token=\(right)", "Authorization: Bearer \(wrong)"),
                ("/api/summary?token=\(wrong)", "Authorization: Bearer \(right)"),
            ]
            for (path, header) in ambiguous {
                let status = try await Self.status(server, path, header)
                #expect(status == "HTTP/1.1 400 Bad Request", "\(path) \(header)")
            }
            let answer = try await server.get("/api/summary?token=\(right)&token=\(wrong)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("more than once"))
            #expect(try await Self.status(server, "/api/summary?token=\(right)", "Authorization: Bearer \(right)") == "HTTP/1.1 200 OK")
            let live = try RawRequest(port: server.port, head: Self.upgrade(hostLine: "Host: 127.0.0.1").replacingOccurrences(
                of: "after=0", with: "after=0&token=\(right)&token=\(wrong)"
            ))
            #expect(try await live.statusLine(within: .seconds(20)) == "HTTP/1.1 400 Bad Request")
        }
    }

    @Test func katanaInspectorMakesATokenWhenAskedAndPrintsIt() async throws {
        let recording = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: recording) }
        let inspector = try ChildProgram.start(
            try ChildProgram.built("katana-inspector"), [recording.path, "--host", "0.0.0.0", "--port", "0", "--token", "auto"]
        )
        defer { inspector.stop() }
        try await inspector.untilItPrints("?token=", "the inspector's address")
        let text = try #require(inspector.printed.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        let address = try #require(URL(string: text))
        let token = try #require(address.query?.split(separator: "=").last.map(String.init))
        #expect(token.count == 32 && token != "auto")
        let port = try #require(address.port)
        let page = try RawRequest(port: port, head: "GET /api/summary?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(try await page.statusLine(within: .seconds(20)) == "HTTP/1.1 200 OK")
        let bare = try RawRequest(port: port, head: "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(try await bare.statusLine(within: .seconds(20)) == "HTTP/1.1 401 Unauthorized")
    }

    /// The status line of `GET path` with `header` (a header line, or nothing).
    static func status(_ server: ServedInspector, _ path: String, _ header: String) async throws -> String? {
        let headers = header.isEmpty ? "" : "\(header)\r\n"
        let request = try RawRequest(port: server.port, head: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)")
        return try await request.statusLine(within: .seconds(20))
    }
}
