import Foundation
import Katana
import KatanaRecording
import KatanaTestSupport
import Testing

/// The request each item was dispatched for, as a recorder's correlation function names it from
/// the item's dispatch context: kept by every sink, written as the item line's `correlation`, read
/// back; absent without a function, without a context, and in recordings made before it existed.
@Suite struct CorrelationTests {
    /// The request a test's dispatching code runs for.
    enum Request {
        @TaskLocal static var id: String?
    }

    /// Reads `Request.id` where an item is dispatched, and puts it back with `withValue`.
    static let requestContext = DispatchContext(
        capture: { Request.id },
        restore: { value, body in Request.$id.withValue(value as? String) { body() } },
        restoreAsync: { value, body in await Request.$id.withValue(value as? String) { await body() } }
    )

    /// A store that carries `Request.id` with each item and records into `sinks`, naming each
    /// item's request with `correlation`.
    static func store(recordingInto sinks: [any RecordingSink<TodoState>], correlation: StoreRecorder<TodoState>.Correlation?) -> TodoStore {
        TodoStore(
            interceptors: Interceptors { StoreRecorder(to: sinks, correlation: correlation) },
            configuration: .init(dispatchContext: requestContext)
        )
    }

    /// Two requests, the second's side effect dispatching three items, and one item outside any
    /// request; returns once every item is recorded.
    static func playRequests(on store: TodoStore) async throws {
        try await Request.$id.withValue("r1") {
            try await store.dispatch(AddTodo(title: "milk")).settled()
        }
        try await Request.$id.withValue("r2") {
            try await store.dispatch(LoadTodos(titles: ["bread", "eggs"])).settled()
        }
        try await store.dispatch(ToggleTodo(index: 0)).settled()
        try await store.waitUntilIdle()
    }

    /// Each recorded item's type (without its module) and correlation, in the recording's order.
    static func described(_ entries: [RecordingEntry]) -> [String] {
        entries.map { "\($0.typeName.split(separator: ".").last ?? "") \($0.correlation ?? "-")" }
    }

    /// What ``playRequests(on:)`` records: a synchronous side effect's line comes after the items it
    /// dispatched, which carry its request.
    static let expected = ["AddTodo r1", "AddTodo r2", "AddTodo r2", "CountLoad r2", "LoadTodos r2", "ToggleTodo -"]

    @Test func theFileTheFlightRecorderAndTheStreamKeepEachItemsRequest() async throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try RecordingFile<TodoState>(writingTo: url)
        let flightRecorder = FlightRecorder<TodoState>(capacity: 100)
        let batches = LockedList<Data>()
        let stream = RecordingStream<TodoState>(snapshotInterval: 4) { batches.append($0) }
        let store = Self.store(recordingInto: [file, flightRecorder, stream], correlation: { $0 as? String })
        try await Self.playRequests(on: store)
        file.close()
        stream.flush()

        #expect(flightRecorder.items.map { "\($0.typeName.split(separator: ".").last ?? "") \($0.correlation ?? "-")" } == Self.expected)
        #expect(Self.described(try Recording<TodoState>(contentsOf: url).entries) == Self.expected)
        #expect(Self.described(try Recording<TodoState>(data: flightRecorder.recordingData()).entries) == Self.expected)
        let streamed = Data(batches.lines.joined(separator: [0x0A])) + Data([0x0A])
        #expect(Self.described(try Recording<TodoState>(data: streamed).entries) == Self.expected)

        // Read a line at a time, as the inspector does.
        var reader = try RecordingReader(header: batches.lines[0], source: "stream")
        var read: [String?] = []
        for (index, line) in batches.lines.enumerated().dropFirst() {
            if case .entry(let entry, _) = try reader.read(line, number: index + 1) {
                read.append(entry.correlation)
            }
        }
        #expect(read == ["r1", "r2", "r2", "r2", "r2", nil])
    }

    @Test func withoutAFunctionNoLineHasTheField() async throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try RecordingFile<TodoState>(writingTo: url)
        let flightRecorder = FlightRecorder<TodoState>(capacity: 100)
        let store = Self.store(recordingInto: [file, flightRecorder], correlation: nil)
        try await Self.playRequests(on: store)
        file.close()

        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("correlation"))
        #expect(try Recording<TodoState>(contentsOf: url).entries.allSatisfy { $0.correlation == nil })
        #expect(flightRecorder.items.count == Self.expected.count)
        #expect(flightRecorder.items.allSatisfy { $0.correlation == nil })
    }

    @Test func aFunctionThatNamesNothingOrAnEmptyNameRecordsNone() async throws {
        let flightRecorder = FlightRecorder<TodoState>(capacity: 100)
        let store = Self.store(recordingInto: [flightRecorder], correlation: { ($0 as? String) == "r1" ? "" : nil })
        try await Self.playRequests(on: store)
        #expect(flightRecorder.items.count == Self.expected.count)
        #expect(flightRecorder.items.allSatisfy { $0.correlation == nil })
        #expect(!String(decoding: flightRecorder.recordingData(), as: UTF8.self).contains("correlation"))
    }

    @Test func theFunctionIsCalledOnlyForItemsThatCarryAContext() async throws {
        let seen = LockedList<String>()
        let flightRecorder = FlightRecorder<TodoState>(capacity: 100)
        let store = Self.store(recordingInto: [flightRecorder]) { context in
            seen.append("\(context)")
            return "request \(context)"
        }
        try await Self.playRequests(on: store)
        #expect(seen.all == ["r1", "r2", "r2", "r2", "r2"], "ToggleTodo carries no context")
        #expect(flightRecorder.items.map(\.correlation) == ["request r1", "request r2", "request r2", "request r2", "request r2", nil])
    }

    @Test func aLongNameIsCutToTheLimit() async throws {
        let flightRecorder = FlightRecorder<TodoState>(capacity: 100)
        // One character of ten thousand scalars (an "e" and its combining accents), then more.
        let combining = "e" + String(repeating: "\u{301}", count: 9_999) + "tail"
        let store = Self.store(recordingInto: [flightRecorder]) { context in
            (context as? String) == "r1" ? String(repeating: "a", count: 100_000) : combining
        }
        try await Self.playRequests(on: store)
        let limit = StoreRecorder<TodoState>.maximumCorrelationLength
        #expect(limit == 128)
        let names = flightRecorder.items.compactMap(\.correlation)
        #expect(names.first == String(repeating: "a", count: limit))
        #expect(names.dropFirst().allSatisfy { $0.unicodeScalars.count == limit && $0.unicodeScalars.first == "e" })

        let recording = try Recording<TodoState>(data: flightRecorder.recordingData())
        #expect(recording.entries.compactMap(\.correlation) == names)
    }

    @Test func controlCharactersAreEscapedInTheLineAndReadBackAsTheyWere() async throws {
        let flightRecorder = FlightRecorder<TodoState>(capacity: 100)
        let name = "r1\n\u{1B}[31mred\u{7}\t\"quoted\""
        let store = Self.store(recordingInto: [flightRecorder]) { _ in name }
        try await Request.$id.withValue("r1") {
            try await store.dispatch(AddTodo(title: "milk")).settled()
        }
        try await store.waitUntilIdle()
        let data = flightRecorder.recordingData()
        let lines = data.split(separator: 0x0A)
        #expect(lines.count == 2, "the header and one item: the new line in the name is escaped")
        #expect(!data.contains(0x1B) && !data.contains(0x07) && !data.contains(0x09))
        #expect(try Recording<TodoState>(data: data).entries.map(\.correlation) == [name])
    }

    @Test func aLineWithoutTheFieldReadsAsNoneAndAnotherTypeIsAnError() throws {
        let header = #"{"format":"katana-recording","version":2,"stateType":"S","stateEncoded":false,"started":0}"#
        let item = #"{"position":%d,"sequence":%d,"time":0,"origin":{"from":"outside"},"type":"T","kind":"updater","replayable":false,"outcome":"handled"%@}"#
        func line(_ position: Int, _ tail: String) -> Data {
            Data(String(format: item, position, position, tail).utf8)
        }
        var reader = try RecordingReader(header: Data(header.utf8), source: "lines")
        guard case .entry(let older, _) = try reader.read(line(1, ""), number: 2),
              case .entry(let newer, _) = try reader.read(line(2, #","correlation":"trace-7""#), number: 3),
              case .entry(let null, _) = try reader.read(line(3, #","correlation":null"#), number: 4)
        else {
            Issue.record("not items")
            return
        }
        #expect(older.correlation == nil)
        #expect(newer.correlation == "trace-7")
        #expect(null.correlation == nil)
        let error = #expect(throws: RecordingError.self) {
            _ = try reader.read(line(4, #","correlation":7"#), number: 5)
        }
        #expect(error?.description.contains(#"its "correlation" is not a String"#) == true, "\(String(describing: error))")
    }
}
