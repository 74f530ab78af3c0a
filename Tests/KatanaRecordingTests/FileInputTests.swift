import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KatanaRecording
import KatanaTestSupport
import Testing

/// What a reader is given may be anything: a huge line, a directory, a named pipe, terminal
/// escape codes. Each is a specific error, reported at once, that never echoes raw control bytes.
@Suite struct FileInputTests {
    @Test func aLineLongerThanTheLimitFailsAsSoonAsItIsSeen_withTheFixInTheMessage() throws {
        #expect(RecordingLineSplitter.defaultMaximumLineLength == 64 << 20)
        let garbage = Data(repeating: 0x61, count: 10_000)
        #expect(throws: RecordingError.lineTooLong(source: "the recording", line: 1, limit: 4_096)) {
            try Recording<TodoState>(data: garbage, maximumLineLength: 4_096)
        }
        let error = RecordingError.lineTooLong(source: "big.jsonl", line: 3, limit: 4_096)
        #expect(error.description.contains("Line 3 of big.jsonl is longer than 4096 bytes"))
        #expect(error.description.contains("maximumLineLength:"))
    }

    @Test func aFileWithAHugeLineStopsReadingAtTheLimit_notAtTheEnd() throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        // A header, then 8 MiB of a line with no end: the limit is 1 MiB, so the reader stops in
        // the second chunk it reads.
        var data = Data(#"{"format":"katana-recording","initialState":{},"started":0,"stateEncoded":true,"stateType":"x","version":2}"#.utf8)
        data.append(0x0A)
        data.append(Data(repeating: 0x7B, count: 8 << 20))
        try data.write(to: url)
        var chunksBeforeFailure = 0
        var splitter = RecordingLineSplitter(source: url.path, maximumLineLength: 1 << 20)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        #expect(throws: RecordingError.lineTooLong(source: url.path, line: 2, limit: 1 << 20)) {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunksBeforeFailure += 1
                try splitter.append(chunk) { _, _ in }
            }
        }
        #expect(chunksBeforeFailure == 2)
        #expect(throws: RecordingError.lineTooLong(source: url.path, line: 2, limit: 1 << 20)) {
            try Recording<TodoState>(contentsOf: url, recordedStateType: "x", maximumLineLength: 1 << 20)
        }
    }

    @Test func aDirectoryIsNotARecordingFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("katana-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected = RecordingError.notARegularFile(path: directory.path, kind: "a directory")
        #expect(throws: expected) { try Recording<TodoState>(contentsOf: directory) }
        #expect(expected.description.contains("is a directory, not a recording file"))
        #expect(!expected.description.contains("permissions"))
    }

    @Test func aNamedPipeIsRefusedWithoutOpeningIt() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("katana-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // Opening a pipe nobody writes to blocks forever: read on a thread of its own, and wait
        // for it with a bound, so that a reader that opens it fails this test instead of hanging.
        let result: String?
        do {
            result = try await onThreadOfItsOwn("the reader to refuse the pipe") {
                do {
                    _ = try Recording<TodoState>(contentsOf: URL(fileURLWithPath: path))
                    return "read"
                } catch {
                    return "\(error)"
                }
            }
        } catch is TimedOut {
            result = nil
        }
        #expect(result == RecordingError.notARegularFile(path: path, kind: "a named pipe (FIFO)").description)
        if result == nil {
            // Unblock the stuck reader so the process can end.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
    }

    @Test func controlCharactersFromTheFileAreEscapedInEveryDescription() {
        let hostile = "\u{1B}[2J\u{1B}[31mX\u{7}\n"
        let errors: [RecordingError] = [
            .notARecording(source: "x.jsonl", firstLine: hostile),
            .malformedLine(source: hostile, line: 2, reason: hostile),
            .itemNotReplayable(type: hostile, position: 1, line: 2, rendering: hostile),
        ]
        for error in errors {
            let text = error.description
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(text.debugDescription)")
            #expect(text.contains(#"\u{1B}[2J\u{1B}[31mX\u{7}\u{A}"#))
        }
        #expect(RecordingError.escapingControlCharacters("plain text, é ✓") == "plain text, é ✓")
        #expect(RecordingError.escapingControlCharacters("\u{85}") == #"\u{85}"#)
    }

    @Test func aFileWhoseFirstLineIsEscapeCodesIsNotARecording_andSaysSoSafely() throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("\u{1B}[2J\u{1B}[31mX\n".utf8).write(to: url)
        do {
            _ = try Recording<TodoState>(contentsOf: url)
            Issue.record("read a file that is not a recording")
        } catch {
            let text = "\(error)"
            #expect(text.contains(#"\u{1B}[2J"#))
            #expect(!text.contains("\u{1B}"))
        }
    }
}

