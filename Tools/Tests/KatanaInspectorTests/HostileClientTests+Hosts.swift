import Foundation
@testable import KatanaInspector
import Testing

/// DNS rebinding: on the loopback address without a token, only a `Host` that is exactly a
/// loopback literal is served, for a page and for the live stream's WebSocket upgrade.
extension HostileClientTests {
    /// `Host` values served: IPv4 literals in 127.0.0.0/8, `localhost` (in any case, as DNS
    /// names are), `[::1]`, each with an optional port from 1 to 65535.
    static let loopbackHosts = [
        "127.0.0.1", "127.0.0.1:7766", "127.5.6.7:80", "127.0.0.0", "127.255.255.255:65535", "localhost",
        "localhost:1", "LOCALHOST:7766", "LocalHost", "[::1]", "[::1]:7766",
    ]

    /// Header lines naming another host, or naming one in a form that is not exactly a loopback
    /// literal; each is refused.
    static let hostileHostLines = [
        "127.0.0.1.evil.example", "127.attacker.example", "127.0.0.1evil", "127.0.0.256", "127.0.0", "127.1",
        "127.0.0.1.", "0x7f.0.0.1", "0177.0.0.1", "127.0.0.01", "127.000.0.1", "127.0.0.1.1", "128.0.0.1",
        "localhost.evil.example", "localhost.", "evil.example", "[::1].evil", "[::2]", "[0:0:0:0:0:0:0:1]", "::1",
        "::1:7766", "[::1]:", "", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:99999", "127.0.0.1:abc", "127.0.0.1:+80",
        "127.0.0.1:80:80", "127.0.0.1@evil.example", "evil.example@127.0.0.1", "127.0.0.1 evil.example",
        "\u{0661}27.0.0.1", "127.0.0.1/evil",
    ].map { "Host: \($0)" } + [
        "Host: 127.0.0.1\r\nHost: evil.example", "Host: evil.example\r\nHost: 127.0.0.1", "X-No-Host: 1",
    ]

    @Test func onlyALoopbackLiteralIsServedAsTheHost() async throws {
        #expect(Self.loopbackHosts.count + Self.hostileHostLines.count >= 20)
        try await Self.withServer { server in
            for host in Self.loopbackHosts {
                let page = try RawRequest(port: server.port, head: "GET /api/summary HTTP/1.1\r\nHost: \(host)\r\n")
                #expect(try await page.statusLine(within: .seconds(20)) == "HTTP/1.1 200 OK", "Host: \(host)")
                let live = try RawRequest(port: server.port, head: Self.upgrade(hostLine: "Host: \(host)"))
                #expect(try await live.statusLine(within: .seconds(20)) == "HTTP/1.1 101 Switching Protocols", "Host: \(host)")
            }
        }
    }

    @Test func anyOtherHostIsRefusedForAPageAndForTheLiveStream() async throws {
        try await Self.withServer { server in
            for line in Self.hostileHostLines {
                let page = try RawRequest(port: server.port, head: "GET /api/summary HTTP/1.1\r\n\(line)\r\n")
                let pageStatus = try await page.statusLine(within: .seconds(20))
                #expect(pageStatus == "HTTP/1.1 403 Forbidden" || pageStatus == "HTTP/1.1 400 Bad Request", "\(line.debugDescription): \(pageStatus ?? "no answer")")
                // A refused upgrade is answered 400 by the WebSocket layer, whatever the reason.
                let live = try RawRequest(port: server.port, head: Self.upgrade(hostLine: line))
                let liveStatus = try await live.statusLine(within: .seconds(20))
                #expect(liveStatus == "HTTP/1.1 400 Bad Request", "\(line.debugDescription): \(liveStatus ?? "no answer")")
            }
        }
    }

    @Test func withATokenAnyHostIsServedToWhoeverHasIt() async throws {
        let token = "0123456789abcdef-token"
        try await Self.withServer(InspectorConfiguration(port: 0, token: token)) { server in
            let page = try RawRequest(port: server.port, head: "GET /api/summary?token=\(token) HTTP/1.1\r\nHost: inspector.internal\r\n")
            #expect(try await page.statusLine(within: .seconds(20)) == "HTTP/1.1 200 OK")
        }
    }

    /// A live-stream handshake with `hostLine` as its host header line(s).
    static func upgrade(hostLine: String) -> String {
        "GET /api/live?after=0 HTTP/1.1\r\n\(hostLine)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: c3RhbGxlZCBjbGllbnQ=\r\nSec-WebSocket-Version: 13\r\n"
    }
}
