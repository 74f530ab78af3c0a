import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

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
}
