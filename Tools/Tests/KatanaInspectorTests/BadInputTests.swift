import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import KatanaInspector
@testable import InspectorPageFixture
import KatanaRecording
import KatanaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the inspector says about recordings it cannot show, and the one it shows with a warning.
@Suite struct BadInputTests {
    @Test func aMissingFileSaysSo() {
        let path = "/nonexistent/folder/session.jsonl"
        #expect(throws: RecordingError.fileNotFound(path: path)) {
            try InspectorServer(recordingAt: path, configuration: InspectorConfiguration(port: 0))
        }
    }

    @Test func anEmptyFileOrOneThatIsNotARecordingSaysSo() throws {
        let empty = temporaryFile(contents: Data())
        let other = temporaryFile(contents: Data("{\"hello\":1}\n".utf8))
        defer {
            try? FileManager.default.removeItem(at: empty)
            try? FileManager.default.removeItem(at: other)
        }
        #expect(throws: RecordingError.empty(source: empty.path)) {
            try InspectorServer(recordingAt: empty.path, configuration: InspectorConfiguration(port: 0))
        }
        #expect(throws: RecordingError.notARecording(source: other.path, firstLine: "{\"hello\":1}")) {
            try InspectorServer(recordingAt: other.path, configuration: InspectorConfiguration(port: 0))
        }
    }

    @Test func aMalformedLineIsAnErrorThatNamesIt() async throws {
        let url = try await RecordedSession.record(extra: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[4] = "{\"position\": \"four\"}"
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        do {
            _ = try InspectorServer(recordingAt: url.path, configuration: InspectorConfiguration(port: 0))
            Issue.record("a malformed line was read")
        } catch let RecordingError.malformedLine(source, line, _) {
            #expect(source == url.path)
            #expect(line == 5)
        }
    }

    @Test func aHugeLineIsRefusedWithTheLimitAndHowToRaiseIt() async throws {
        let url = try await RecordedSession.record(extra: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").count
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        // A line of 3 MiB without an end, read in chunks of 1 MiB: refused before it is whole.
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: "x"), count: 3 << 20))
        try handle.close()
        let error = InspectorError.lineTooLong(path: url.path, line: lines + 1, limit: 1 << 20)
        #expect(throws: error) {
            try InspectorServer(recordingAt: url.path, configuration: InspectorConfiguration(port: 0, maximumLineLength: 1 << 20))
        }
        #expect(error.description.contains("Line \(lines + 1) of \(url.path) is longer than 1048576 bytes"))
        #expect(error.description.contains("--max-line-bytes"))
    }

    @Test func aLastLineCutShortIsLeftOutWithAWarning() async throws {
        let url = try await RecordedSession.record(extra: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        var data = try Data(contentsOf: url)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").count
        let items = try await ServedInspector.withFile(url.path) { try await $0.json("api/summary").value["count"]?.int }
        data.removeLast(20)
        try data.write(to: url)
        try await ServedInspector.withFile(url.path) { server in
            // The last line, an item, is left out.
            let summary = try await server.json("api/summary").value
            #expect(summary["count"]?.int == items.map { $0 - 1 })
            #expect(summary["warnings"] == .array([.string("line \(lines) was cut short (the recording ends mid-line) and is left out")]))
        }
    }

    @Test func aDirectoryIsNotARecordingFile_andSaysSoRatherThanPermissions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected = RecordingError.notARegularFile(path: directory.path, kind: "a directory")
        #expect(throws: expected) {
            try InspectorServer(recordingAt: directory.path, configuration: InspectorConfiguration(port: 0))
        }
    }

    @Test func aNamedPipeIsRefusedWithoutBlockingOnIt() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // Opening a pipe nobody writes to blocks: the server is made on a thread of its own, and
        // waited for with a bound, so that a loader that opens it fails here instead of hanging.
        let outcome: String?
        do {
            outcome = try await onThreadOfItsOwn("the server to refuse the pipe") {
                do {
                    _ = try InspectorServer(recordingAt: path, configuration: InspectorConfiguration(port: 0))
                    return "read"
                } catch {
                    return "\(error)"
                }
            }
        } catch is TimedOut {
            outcome = nil
        }
        let inTime = outcome != nil
        if !inTime {
            // Unblock the stuck loader so the process can end.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(inTime)
        #expect(outcome == RecordingError.notARegularFile(path: path, kind: "a named pipe (FIFO)").description)
    }

    @Test func aPortInUseSaysWhichAndHowToChooseAnother() async throws {
        let (socket, port) = try Self.listeningSocket()
        defer { close(socket) }
        let recording = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: recording) }
        let server = try InspectorServer(recordingAt: recording.path, configuration: InspectorConfiguration(port: port))
        let error = InspectorError.addressInUse(host: "127.0.0.1", port: port)
        await #expect(throws: error) {
            try await withTimeout("the server to fail") { try await server.run() }
        }
        #expect(error.description.contains("already listening on 127.0.0.1:\(port)"))
        #expect(error.description.contains("--port 0"))
        #expect(error.description.contains("InspectorConfiguration(port:)"))
        let live = LiveInspector<TodoState>(configuration: InspectorConfiguration(port: port))
        defer { live.stop() }
        await #expect(throws: error) {
            try await withTimeout("the live inspector to fail") { try await live.serving() }
        }
    }

    /// A socket listening on a free loopback port, and the port.
    static func listeningSocket() throws -> (Int32, Int) {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(socket >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && listen(socket, 8) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        try #require(bound, "could not listen on a loopback port")
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}
