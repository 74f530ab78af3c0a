import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

/// Another site's page cannot read the inspector through the user's browser: not by opening its
/// live stream (which the browser's same-origin rule does not hold back), and not through a host
/// name pointed at 127.0.0.1.
@Suite struct OriginCheckTests {
    @Test func theInspectorsOwnPageAndToolsWithoutAnOriginAreLetThrough() {
        #expect(OriginCheck.refusal(host: "127.0.0.1:7766", origin: nil, loopbackOnly: true) == nil)
        #expect(OriginCheck.refusal(host: "127.0.0.1:7766", origin: "http://127.0.0.1:7766", loopbackOnly: true) == nil)
        #expect(OriginCheck.refusal(host: "localhost:7766", origin: "http://localhost:7766", loopbackOnly: true) == nil)
        #expect(OriginCheck.refusal(host: "[::1]:7766", origin: nil, loopbackOnly: true) == nil)
        #expect(OriginCheck.refusal(host: "inspector.internal:7766", origin: "http://inspector.internal:7766", loopbackOnly: false) == nil)
        // A WebSocket client (not a browser) names the host with a ws:// origin.
        #expect(OriginCheck.refusal(host: "127.0.0.1:7766", origin: "ws://127.0.0.1", loopbackOnly: true) == nil)
        #expect(OriginCheck.refusal(host: "127.0.0.1:7766", origin: "ws://127.0.0.1:7766", loopbackOnly: true) == nil)
    }

    @Test func anotherSitesPageIsRefused() throws {
        let refusal = try #require(OriginCheck.refusal(host: "127.0.0.1:7766", origin: "http://evil.example", loopbackOnly: true))
        #expect(refusal.contains("from http://evil.example"))
        #expect(OriginCheck.refusal(host: "127.0.0.1:7766", origin: "http://127.0.0.1:7767", loopbackOnly: true) != nil)
        #expect(OriginCheck.refusal(host: "10.0.0.5:7766", origin: "http://evil.example", loopbackOnly: false) != nil)
        #expect(OriginCheck.refusal(host: "127.0.0.1:7766", origin: "ws://evil.example", loopbackOnly: true) != nil)
        #expect(OriginCheck.refusal(host: "127.0.0.1:7766", origin: "https://127.0.0.1:7766", loopbackOnly: true) != nil)
    }

    @Test func onTheLoopbackAddressAnotherHostNameIsRefused() throws {
        let refusal = try #require(OriginCheck.refusal(host: "rebound.example:7766", origin: nil, loopbackOnly: true))
        #expect(refusal.contains("not rebound.example:7766"))
        #expect(OriginCheck.refusal(host: nil, origin: nil, loopbackOnly: true) != nil)
        // With a token, any name may reach it: the token is what is checked.
        #expect(OriginCheck.refusal(host: "rebound.example:7766", origin: nil, loopbackOnly: false) == nil)
        #expect(OriginCheck.hostName("[::1]:7766") == "::1")
        #expect(OriginCheck.hostName("localhost") == "localhost")
    }

    @Test func theListenAddressNeedsNoTokenOnlyWhenItIsALoopbackLiteral() throws {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"] {
            try InspectorConfiguration(host: host).validate()
        }
        for host in ["127.0.0.1.evil.example", "127.attacker.example", "127.1", "0x7f.0.0.1", "localhost.evil.example", "0.0.0.0", "::"] {
            #expect(throws: InspectorError.tokenRequired(host: host)) {
                try InspectorConfiguration(host: host).validate()
            }
        }
    }

    @Test func aServerRefusesBothOnTheWire() async throws {
        let url = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let port = server.url.port ?? 0
            // A refused upgrade is answered 400 by the WebSocket layer, whatever the reason.
            let fromElsewhere = try RawRequest.liveStream(port: port, after: 0, extraHeaders: "Origin: http://evil.example\r\n")
            #expect(try await fromElsewhere.statusLine(within: .seconds(20)) == "HTTP/1.1 400 Bad Request")
            let plain = try RawRequest(port: port, head: "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://evil.example\r\n")
            #expect(try await plain.statusLine(within: .seconds(20)) == "HTTP/1.1 403 Forbidden")
            let rebound = try RawRequest(port: port, head: "GET /api/summary HTTP/1.1\r\nHost: rebound.example:\(port)\r\n")
            #expect(try await rebound.statusLine(within: .seconds(20)) == "HTTP/1.1 403 Forbidden")
            let own = try RawRequest.liveStream(port: port, after: 0, extraHeaders: "Origin: http://127.0.0.1:\(port)\r\n")
            #expect(try await own.statusLine(within: .seconds(20)) == "HTTP/1.1 101 Switching Protocols")
        }
    }
}
