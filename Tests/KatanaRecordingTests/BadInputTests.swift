import Foundation
import Katana
import KatanaRecording
import KatanaTestSupport
import Testing

/// Every bad input a replay can meet is a specific error that names the line or item and the fix.
@Suite struct BadInputTests {
    /// A recording of three updaters, the last not Encodable, as file contents.
    private func recordingData(includingUnencodable: Bool = false, snapshotInterval: Int = 100) async throws -> Data {
        let flight = FlightRecorder<TodoState>(capacity: 10)
        let store = TodoApp.store(recordingInto: [flight])
        try await store.dispatch(AddTodo(title: "a")).settled()
        try await store.dispatch(ToggleTodo(index: 0)).settled()
        if includingUnencodable {
            try await store.dispatch(RenameAll { $0.uppercased() }).settled()
        }
        // The rule's count, and its item recorded (the recorder appends it after the state changed).
        try await store.waitUntil("the rule's toggle count, recorded") { store.state.toggles == 1 && store.workSnapshot.isIdle }
        return flight.recordingData(snapshotInterval: snapshotInterval)
    }

    private func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aTruncatedLastLineIsAnErrorUnlessTheCallerAsksToReadUpToIt() async throws {
        var data = try await recordingData()
        let count = lines(data).count
        data.removeLast(25)  // the newline and the end of the last object: a crash mid-write
        #expect(throws: RecordingError.truncatedLastLine(source: "the recording", line: count)) {
            try Recording<TodoState>(data: data)
        }
        let error = RecordingError.truncatedLastLine(source: "the recording", line: count)
        #expect(error.description.contains("(line \(count)) is cut short"))
        #expect(error.description.contains("allowingTruncatedLastLine: true to read the recording up to line \(count - 1)"))

        let recording = try Recording<TodoState>(data: data, allowingTruncatedLastLine: true)
        #expect(recording.truncatedLine == count)
        #expect(recording.entries.count == count - 2)
        #expect(try recording.replay(into: TodoApp.replayStore(), items: TodoApp.replayable).matches)
    }

    @Test func aFileOfAnotherFormatIsNotARecording() async throws {
        let data = Data((#"{"name":"something else"}"# + "\n").utf8)
        let error = RecordingError.notARecording(source: "the recording", firstLine: #"{"name":"something else"}"#)
        #expect(throws: error) { try Recording<TodoState>(data: data) }
        #expect(error.description.contains("line 1 should be a header with \"format\": \"katana-recording\""))
    }

    @Test func aRecordingOfAnotherVersionNamesBoth() async throws {
        var all = lines(try await recordingData())
        all[0] = all[0].replacingOccurrences(of: #""version":2"#, with: #""version":7"#)
        let data = Data((all.joined(separator: "\n") + "\n").utf8)
        let error = RecordingError.unsupportedVersion(source: "the recording", found: 7, supported: 2)
        #expect(throws: error) { try Recording<TodoState>(data: data) }
        #expect(error.description.contains("format version 7, but this version of KatanaRecording reads versions 1 to 2"))
    }

    @Test func aRecordingOfAnotherStateTypeNamesBothAndTheWayToAcceptIt() async throws {
        struct OtherState: State, Codable {}
        let data = try await recordingData()
        let recorded = String(reflecting: TodoState.self)
        let error = RecordingError.stateTypeMismatch(source: "the recording", recorded: recorded, expected: String(reflecting: OtherState.self))
        #expect(throws: error) { try Recording<OtherState>(data: data) }
        #expect(error.description.contains("pass recordedStateType: \"\(recorded)\""))
        // Accepted when the caller says the type was renamed.
        _ = try Recording<OtherState>(data: data, recordedStateType: recorded)
    }

    @Test func anItemTypeTheCallerDidNotListNamesTheItemAndTheFix() async throws {
        let recording = try Recording<TodoState>(data: try await recordingData())
        let toggle = try #require(recording.entries.first { $0.typeName.hasSuffix("ToggleTodo") })
        let error = RecordingError.unknownItemType(type: toggle.typeName, position: toggle.position, line: toggle.line)
        #expect(throws: error) {
            try recording.replay(into: TodoApp.replayStore(), items: [AddTodo.self])
        }
        #expect(error.description.contains("Item \(toggle.position) (line \(toggle.line)) is a \(toggle.typeName)"))
        #expect(error.description.contains("Add ToggleTodo.self to items:"))
    }

    @Test func anItemThatWasNotEncodableCannotBeReplayedAndSaysSo() async throws {
        let recording = try Recording<TodoState>(data: try await recordingData(includingUnencodable: true))
        let rename = try #require(recording.entries.first { $0.typeName.hasSuffix("RenameAll") })
        #expect(rename.encoding == nil)
        #expect(rename.rendering?.hasPrefix("RenameAll(") == true, "\(rename.rendering ?? "nil")")
        do {
            _ = try recording.replay(into: TodoApp.replayStore(), items: TodoApp.replayable + [DecodableRenameAll.self], renaming: ["RenameAll": DecodableRenameAll.self])
            Issue.record("the replay went past an item that cannot be replayed")
        } catch let error as RecordingError {
            guard case let .itemNotReplayable(type, position, line, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(type == rename.typeName && position == rename.position && line == rename.line)
            #expect(error.description.contains("was not Encodable when it was recorded"))
            #expect(error.description.contains("Make RenameAll Codable and record again"))
        }
    }

    @Test func aFileThatDoesNotExistSaysWhere() async throws {
        let path = "/nonexistent/katana/session.jsonl"
        #expect(throws: RecordingError.fileNotFound(path: path)) {
            try Recording<TodoState>(contentsOf: URL(fileURLWithPath: path))
        }
        #expect(RecordingError.fileNotFound(path: path).description.hasPrefix("There is no recording at \(path)"))
    }

    @Test func anEmptyFileHasNoHeader() async throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data().write(to: url)
        #expect(throws: RecordingError.empty(source: url.path)) { try Recording<TodoState>(contentsOf: url) }
        #expect(RecordingError.empty(source: url.path).description.contains("it has no header line"))
    }

    @Test func aLineChangedByHandIsNamed() async throws {
        var all = lines(try await recordingData())
        all[2] = #"{"position": "two"}"#
        let data = Data((all.joined(separator: "\n") + "\n").utf8)
        do {
            _ = try Recording<TodoState>(data: data)
            Issue.record("a malformed line was read")
        } catch let error as RecordingError {
            guard case .malformedLine(_, let line, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(line == 3)
            #expect(error.description.hasPrefix("Line 3 of the recording is not a recorded item"))
        }
    }

    @Test func aFileThatCannotBeCreatedSaysWhy() {
        let url = URL(fileURLWithPath: "/nonexistent/katana/session.jsonl")
        #expect(throws: RecordingError.cannotCreateFile(path: url.path, reason: "the folder /nonexistent/katana does not exist; create it first")) {
            try RecordingFile<TodoState>(writingTo: url)
        }
    }

    @Test func aGapStopsAReplayWithTheLineAndTheFix() async throws {
        // As a file sink writes a gap: the item after it carries its whole state.
        var all = lines(try await recordingData(snapshotInterval: 1))
        all.insert(#"{"gap":5}"#, at: 2)
        let data = Data((all.joined(separator: "\n") + "\n").utf8)
        let recording = try Recording<TodoState>(data: data)
        #expect(recording.gaps.map(\.line) == [3])
        #expect(recording.gaps.map(\.dropped) == [5])
        #expect(recording.gaps.map(\.entriesBefore) == [1])
        let error = RecordingError.gap(source: "the recording", line: 3, dropped: 5)
        #expect(throws: error) { try recording.replay(into: TodoApp.replayStore(), items: TodoApp.replayable) }
        #expect(error.description.contains("5 item(s) were dropped"))
        // The items before the gap replay.
        #expect(try recording.replay(into: TodoApp.replayStore(), items: TodoApp.replayable, upToLine: 2).matches)
    }
}

/// Stands in for `RenameAll` in a replay: decodable, but the recording has no encoding for it.
struct DecodableRenameAll: StateUpdater, Codable {
    func updateState(_ state: inout TodoState) {}
}
