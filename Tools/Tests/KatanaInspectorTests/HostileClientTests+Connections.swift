import Foundation
@testable import KatanaInspector
import KatanaTestSupport
import Testing

/// Clients that hold connections open without finishing a request: each is closed within the
/// configured time, and beyond the connection cap a connection is closed at once. The bounds the
/// tests wait for are generous (15 s for a 1 s timeout) so that they hold on a busy machine.
extension HostileClientTests {
    /// A request cut short after its first line.
    static let halfSent = Array("GET /api/summary HTTP/1.1\r\n".utf8)

    @Test func theLimitsHaveDefaultsAServiceCanLeaveOnAndRefuseValuesThatCannotWork() throws {
        let defaults = InspectorConfiguration()
        #expect(defaults.requestHeadTimeout == .seconds(5))
        #expect(defaults.idleTimeout == .seconds(30))
        #expect(defaults.maximumConnections == 128)
        #expect(throws: InspectorError.invalidSetting(name: "requestHeadTimeout (--head-timeout)", value: "0.0 seconds", expected: "a time above zero, e.g. 5 seconds")) {
            try InspectorConfiguration(requestHeadTimeout: .zero).validate()
        }
        #expect(throws: InspectorError.self) { try InspectorConfiguration(idleTimeout: .seconds(-1)).validate() }
        let noConnections = InspectorError.invalidSetting(name: "maximumConnections (--max-connections)", value: "0", expected: "at least 1, e.g. 128")
        #expect(throws: noConnections) { try InspectorConfiguration(maximumConnections: 0).validate() }
        #expect(noConnections.description == "The inspector's maximumConnections (--max-connections) is 0; it must be at least 1, e.g. 128.")
    }

    @Test func aConnectionThatNeverFinishesItsRequestHeadIsClosed() async throws {
        try await Self.withServer(InspectorConfiguration(port: 0, requestHeadTimeout: .seconds(1))) { server in
            let silent = try RawRequest(port: server.port, bytes: [])
            let cutShort = try (0 ..< 5).map { _ in try RawRequest(port: server.port, bytes: Self.halfSent) }
            let noBlankLine = try RawRequest(port: server.port, head: "GET / HTTP/1.1\r\nHost: 127.0.0.1")
            let trickling = try RawRequest(port: server.port, bytes: Self.halfSent)
            var open = [silent, noBlankLine, trickling] + cutShort
            // The trickling client sends a header line every 200 ms: each byte arrives in time,
            // the head never ends.
            let deadline = ContinuousClock.now + .seconds(15)
            var line = 0
            while !open.isEmpty, ContinuousClock.now < deadline {
                trickling.send(Array("X-Line-\(line): 1\r\n".utf8))
                line += 1
                open.removeAll { $0.isClosedByServer }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(open.isEmpty, "\(open.count) connections whose request head never ended are still open")
        }
    }

    @Test func aConnectionLeftIdleAfterAResponseIsClosed() async throws {
        try await Self.withServer(InspectorConfiguration(port: 0, idleTimeout: .seconds(1))) { server in
            let idle = try RawRequest(port: server.port, head: "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            #expect(try await idle.statusLine(within: .seconds(20)) == "HTTP/1.1 200 OK")
            let startedAnother = try RawRequest(port: server.port, head: "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            #expect(try await startedAnother.statusLine(within: .seconds(20)) == "HTTP/1.1 200 OK")
            startedAnother.send(Self.halfSent)
            #expect(try await RawRequest.allClosed([idle, startedAnother], within: .seconds(15)), "a kept-alive connection stayed open")
        }
    }

    @Test func aConnectionBeyondTheCapIsClosedAtOnce() async throws {
        // The head timeout is long, so that only the cap can close a connection within the test.
        let configuration = InspectorConfiguration(port: 0, requestHeadTimeout: .seconds(120), maximumConnections: 32)
        try await Self.withServer(configuration) { server in
            var clients = try (0 ..< 40).map { _ in try RawRequest(port: server.port, bytes: Self.halfSent) }
            try await poll("8 connections beyond the cap to be closed") {
                clients.filter(\.isClosedByServer).count >= 8
            }
            // A moment for any further (wrong) closing to show.
            try await Task.sleep(for: .milliseconds(500))
            #expect(clients.filter(\.isClosedByServer).count == 8, "the server closed connections within the cap")
            clients.removeAll()
            try await poll("the cap to have room again") {
                (try? await server.answersNormally()) ?? false
            }
        }
    }

    @Test func onceHalfSentClientsFillingTheCapTimeOutANewRequestIsAnswered() async throws {
        let configuration = InspectorConfiguration(port: 0, requestHeadTimeout: .seconds(1), maximumConnections: 32)
        try await Self.withServer(configuration) { server in
            let clients = try (0 ..< 32).map { _ in try RawRequest(port: server.port, bytes: Self.halfSent) }
            // A fresh request at a time, until one is answered (nothing signals the cap's room).
            var answered = true
            do {
                try await poll("a new request to be answered", timeout: .seconds(30)) {
                    let fresh = try RawRequest(port: server.port, head: "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    return try await fresh.statusLine(within: .seconds(5)) == "HTTP/1.1 200 OK"
                }
            } catch is TimedOut {
                answered = false
            }
            #expect(answered, "no request was answered within 30 s")
            #expect(try await RawRequest.allClosed(clients, within: .seconds(15)))
        }
    }
}
