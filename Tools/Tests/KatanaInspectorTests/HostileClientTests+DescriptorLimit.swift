import Foundation
@testable import KatanaInspector
import KatanaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scenario: `katana-inspector` with a low file descriptor limit and more half-sent
/// clients than descriptors. It must go on answering (once the half-sent ones time out) and stay
/// idle meanwhile: while it is out of descriptors, it must not retry accepting in a busy loop.
extension HostileClientTests {
    // Not in the run that instruments the package's own code (KATANA_TOOLS_SANITIZE=thread): in one
    // of three CI runs of it, the inspector started under `ulimit -n 64` ended before the test read
    // its CPU time, and the cause is not found yet (it never happened in the plain run, nor alone).
    // CI's plain run of this package checks the behaviour, with the same code.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["KATANA_TOOLS_SANITIZE"] == "thread",
                    "the sanitized inspector once ended early with its descriptors used up (cause not found)"))
    func outOfDescriptorsTheInspectorStaysIdleAndAnswersOnceClientsTimeOut() async throws {
        let recording = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: recording) }
        // 64 descriptors: the 80 half-sent clients below use them all up.
        let inspector = try ChildProgram.start(URL(fileURLWithPath: "/bin/sh"), [
            "-c", "ulimit -n 64 && exec \"$0\" \"$@\"", try ChildProgram.built("katana-inspector").path, recording.path, "--port", "0", "--head-timeout", "2",
        ])
        defer { inspector.stop() }
        try await inspector.untilItPrints("http://", "the inspector's address")
        let address = try #require(inspector.printed.split(separator: " ").last.flatMap { URL(string: $0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        let port = try #require(address.port)

        let clients = try (0 ..< 80).map { _ in try RawRequest(port: port, bytes: Self.halfSent) }
        try await Task.sleep(for: .seconds(1))
        let before = try inspector.cpuTime()
        try await Task.sleep(for: .seconds(4))
        let used = try inspector.cpuTime() - before
        // Idle is close to 0 s; a loop retrying accept takes most of a core (2.5 s or more here).
        #expect(used < .seconds(1), "the inspector used \(used) of CPU in 4 s with its descriptors used up")

        let fresh = try RawRequest(port: port, head: "GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(try await fresh.statusLine(within: .seconds(60)) == "HTTP/1.1 200 OK", "a new request was not answered")
        #expect(try await RawRequest.allClosed(clients, within: .seconds(60)))
    }
}
