import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

/// Clients that mean harm, or are broken, on the wire against a real inspector: each test ends by
/// checking that an ordinary request is still answered. The tests are spread over this file and
/// its extensions: host names (`+Hosts`), connections held open (`+Connections`, `+DescriptorLimit`)
/// and tokens (`+Tokens`).
@Suite struct HostileClientTests {
    /// Runs `body` with a server for a short recording, made with `configuration`, then checks that
    /// the server still answers an ordinary request.
    static func withServer(
        _ configuration: InspectorConfiguration = InspectorConfiguration(port: 0),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (ServedInspector) async throws -> Void
    ) async throws {
        let url = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path, configuration: configuration) { server in
            try await body(server)
            #expect(try await server.answersNormally(), "an ordinary request is no longer answered", sourceLocation: sourceLocation)
        }
    }
}

/// Requests no browser sends: paths that climb out of the page's folder, requests that are not
/// HTTP/1.1, a body of 2 GB trickled in, and a live stream that never reads. Each is refused or
/// closed, and the server goes on.
extension HostileClientTests {
    static let traversals = [
        "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2fPackage.swift", "/..%2f..%2fetc%2fpasswd", "//etc/passwd",
        "/index.html%00.js", "/.%2e/.%2e/etc/passwd", "/%252e%252e/etc/passwd", "/api/../../../etc/passwd",
        "/index.html/../../Package.swift", "/..\\..\\etc\\passwd", "/%2e%2e%5c%2e%2e%5cPackage.swift", "/Package.swift",
        "/../Sources/KatanaInspector/Server/InspectorServer.swift",
    ]

    @Test func aPathOutsideThePagesFolderServesNothing() async throws {
        try await Self.withServer { server in
            for path in Self.traversals {
                let request = try RawRequest(port: server.port, head: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n")
                let response = try #require(try await request.wholeResponse(within: .seconds(20)), "\(path): no answer")
                let text = String(decoding: response, as: UTF8.self)
                let status = Self.statusLine(response)
                #expect(status == "HTTP/1.1 404 Not Found" || status == "HTTP/1.1 400 Bad Request", "\(path): \(status)")
                #expect(!text.contains("root:") && !text.contains("PackageDescription") && !text.contains("import "), "\(path) served a file")
            }
        }
    }

    /// Requests a parser refuses, each with what must not be sent back: nothing at all.
    static let malformed: [(String, [UInt8])] = [
        ("a garbage request line", Array("\u{16}\u{03}\u{01}\u{02}garbage\r\n\r\n".utf8)),
        ("a TLS hello", [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03] + [UInt8](repeating: 0, count: 64)),
        ("a bad version", Array("GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n".utf8)),
        ("a header without a colon", Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColonHere\r\n\r\n".utf8)),
        ("a 100 KB header line", Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n".utf8)),
        ("lines ended by LF alone", Array("GET / HTTP/1.1\nHost: 127.0.0.1\n\n".utf8)),
        ("a NUL in a header", Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\u{0}b\r\n\r\n".utf8)),
        ("a live-stream upgrade with a garbage header", Array((Self.upgrade(hostLine: "Host: 127.0.0.1") + "Bad Header\r\n\r\n").utf8)),
    ]

    @Test func aMalformedRequestIsAnsweredOrClosedAndTheServerGoesOn() async throws {
        try await Self.withServer { server in
            for (what, bytes) in Self.malformed {
                let request = try RawRequest(port: server.port, bytes: bytes)
                // Within 15 s, well before the 5 s head timeout would matter twice over.
                let response = try await request.wholeResponse(within: .seconds(15))
                let status = response.map(Self.statusLine)
                #expect(
                    status == "" || status == "HTTP/1.1 400 Bad Request" || status == "HTTP/1.1 431 Request Header Fields Too Large",
                    "\(what): \(status ?? "still open after 15 s")"
                )
            }
        }
    }

    @Test func aHugeBodyTrickledInIsRefusedAndClosedWhileOthersAreAnswered() async throws {
        try await Self.withServer { server in
            for head in [
                "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000000\r\n",
                Self.upgrade(hostLine: "Host: 127.0.0.1") + "Content-Length: 2000000000\r\n",
                "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n",
            ] {
                let before = Self.residentMemory()
                let request = try RawRequest(port: server.port, head: head)
                let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
                var status: String?
                var closed = false
                let deadline = ContinuousClock.now + .seconds(15)
                while !closed, ContinuousClock.now < deadline {
                    closed = !request.send(chunk) || request.isClosedByServer
                    if status == nil { status = try await request.statusLine(within: .milliseconds(20)) }
                    #expect(try await server.answersNormally())
                }
                #expect(closed, "\(head.debugDescription): still open after 15 s of body")
                // 413 for a request, 400 for a refused upgrade; nothing when the close came first.
                #expect(status == nil || status?.hasPrefix("HTTP/1.1 413 ") == true || status == "HTTP/1.1 400 Bad Request", "\(status ?? "")")
                if let before, let after = Self.residentMemory() {
                    #expect(after - before < 512 << 20, "the process grew by \(after - before) bytes")
                }
            }
        }
    }

    @Test func aLiveStreamThatNeverReadsHoldsUpNoOtherRequest() async throws {
        let url = try await RecordedSession.record(extra: 10_000)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path, configuration: InspectorConfiguration(port: 0, slowClientTimeout: .seconds(1))) { server in
            // Its receive buffer is small and it reads nothing: the rows (about 1.5 MB) wait on it.
            let stalled = try RawRequest.liveStream(port: server.port, after: 0)
            for _ in 0 ..< 20 {
                #expect(try await server.answersNormally())
                let page = try await server.get("/")
                #expect(page.status == 200)
                try await Task.sleep(for: .milliseconds(100))
            }
            _ = stalled
            #expect(try await server.answersNormally())
        }
    }

    /// The first line of `response` (empty when there is none).
    static func statusLine(_ response: [UInt8]) -> String {
        String(decoding: response.prefix { $0 != 0x0D }, as: UTF8.self)
    }

    /// The test process's resident memory in bytes, from /proc; nil where there is none.
    static func residentMemory() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes << 10
    }
}
