import Foundation
import Katana
import KatanaRecording
import KatanaTestSupport
import Testing

/// A recording tells the truth about side effects: beside each item, recorded when the store took
/// it, each side effect's end is recorded when it comes (succeeded, failed with its error, or
/// cancelled and by what), with its duration, in the file, the flight recorder and the stream;
/// earlier recordings still read, and a replay ignores ends.
@Suite struct SideEffectEndRecordingTests {
    typealias Context = SideEffectContext<TodoState, EmptySideEffectDependencyContainer>

    /// Sleeps until cancelled; notes that its body began. Recorded with its query.
    struct Search: AsyncSideEffect, Encodable {
        enum CodingKeys: CodingKey { case query }
        var query: String
        var latestWins = true
        /// The queries whose bodies began, in order.
        let began: LockedList<String>
        var cancellationID: SideEffectID? { "search" }
        var cancelsInFlight: Bool { latestWins }
        func sideEffect(_ context: Context) async throws {
            began.append(query)
            try await Task.sleep(for: .seconds(60))
        }
    }

    struct Refresh: AsyncSideEffect {
        var fails = false
        func sideEffect(_ context: Context) async throws {
            try await Task.sleep(for: .milliseconds(5))
            if fails { throw Offline() }
            try await context.dispatch(CountLoad()).value
        }
    }

    struct Offline: Error, CustomStringConvertible {
        var description: String { "the server is offline" }
    }

    /// Plays searches (two cancelled by latest wins, the last cancelled by its promise), a refresh
    /// that succeeds and one that fails, a synchronous side effect, and a search a shutdown cancels.
    private func playSession(on store: TodoStore) async throws {
        let began = LockedList<String>()
        let first = store.dispatch(Search(query: "m", began: began))
        try await began.waitUntil("the first search to begin") { $0 == ["m"] }
        let second = store.dispatch(Search(query: "mi", began: began))
        try await began.waitUntil("the second search to begin") { $0 == ["m", "mi"] }
        let third = store.dispatch(Search(query: "mil", began: began))
        try await began.waitUntil("the third search to begin") { $0 == ["m", "mi", "mil"] }
        #expect(first.isCancelled && second.isCancelled)
        third.cancel()
        try await store.dispatch(Refresh()).settled()
        await #expect(throws: Offline.self) { try await store.dispatch(Refresh(fails: true)).settled() }
        try await store.dispatch(LoadTodos(titles: ["bread"])).settled()
        _ = store.dispatch(Search(query: "last", latestWins: false, began: began))
        try await began.waitForCount(4)
        await store.shutdown(.cancelWork, deadline: .zero, gracePeriod: .seconds(30))
        try await store.waitUntilIdle()
    }

    /// What each recorded end says, by its side effect's item: "type query: outcome".
    private func described(_ ends: [RecordedEnd], items entries: [RecordingEntry]) -> [String] {
        ends.map { end in
            let item = entries.first { $0.sequence == end.sequence }
            let query = if case .string(let text)? = item?.encoding?["query"] { " " + text } else { "" }
            let outcome = switch end.outcome {
            case .succeeded: "succeeded"
            case .failed(let error): "failed: \(error)"
            case .cancelled(let canceller): "cancelled by \(canceller.rawValue)"
            }
            return "\(end.typeName.split(separator: ".").last ?? "")\(query): \(outcome)"
        }
    }

    @Test func theFileRecordsEachSideEffectsEnd_withItsOutcomeAndDuration() async throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try RecordingFile<TodoState>(writingTo: url)
        let flight = FlightRecorder<TodoState>(capacity: 100)
        let store = TodoApp.store(recordingInto: [file, flight])
        try await playSession(on: store)
        file.close()

        let recording = try Recording<TodoState>(contentsOf: url)
        let expected = [
            "Search m: cancelled by latestWins", "Search mi: cancelled by latestWins", "Search mil: cancelled by promise",
            "Refresh: succeeded", "Refresh: failed: the server is offline", "LoadTodos: succeeded", "Search last: cancelled by shutdown",
        ]
        #expect(Set(described(recording.ends, items: recording.entries)) == Set(expected))
        #expect(recording.ends.count == expected.count)
        // The items themselves were handled: the store took them; their ends say the rest.
        let searches = recording.entries.filter { $0.typeName.hasSuffix("Search") }
        #expect(searches.count == 4 && searches.allSatisfy { $0.outcome == .handled })
        #expect(recording.ends.allSatisfy { $0.began })
        let refresh = try #require(recording.ends.first { $0.typeName.hasSuffix("Refresh") && $0.outcome == .succeeded })
        #expect(refresh.duration >= .milliseconds(5))
        // Every end names an item of the recording.
        #expect(recording.ends.allSatisfy { end in recording.entries.contains { $0.sequence == end.sequence } })

        // The flight recorder kept the same ends, and its dump reads back with them.
        #expect(Set(described(flight.ends, items: recording.entries)) == Set(expected))
        let dumped = try Recording<TodoState>(data: flight.recordingData())
        #expect(Set(described(dumped.ends, items: dumped.entries)) == Set(expected))
        // A replay dispatches the updaters and passes over the ends.
        #expect(try dumped.replay(into: TodoApp.replayStore(), items: TodoApp.replayable).matches)
    }

    @Test func endLinesNameTheirSideEffectAndSayWhatCancelledIt() throws {
        let end = RecordedEnd(
            sequence: 7, typeName: "App.Search", time: Date(timeIntervalSince1970: 1_795_750_083.5),
            outcome: .cancelled(by: .latestWins), duration: .microseconds(12_345), began: true
        )
        let flight = FlightRecorder<TodoState>(capacity: 4)
        flight.begin(stateType: String(reflecting: TodoState.self), initialState: TodoState())
        flight.append(end)
        let lines = String(decoding: flight.recordingData(), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        let line = try JSONValue(parsing: Array(lines[1].utf8))
        #expect(line == .object([
            "end": .integer(7), "type": .string("App.Search"), "time": .number(1_795_750_083.5),
            "outcome": .string("cancelled"), "cancelledBy": .string("latestWins"), "duration": .number(0.012345),
        ]))
        let read = try Recording<TodoState>(data: flight.recordingData())
        #expect(read.ends == [end])
    }

    @Test func aRecordingOfTheEarlierFormatStillReads_withNoEnds() async throws {
        let flight = FlightRecorder<TodoState>(capacity: 100)
        let store = TodoApp.store(recordingInto: [flight])
        try await store.dispatch(AddTodo(title: "milk")).settled()
        try await store.dispatch(SyncTodos()).settled()
        try await store.waitUntil("the async side effect's end, recorded") { store.workSnapshot.isIdle && flight.ends.count == 1 }
        let current = String(decoding: flight.recordingData(), as: UTF8.self).split(separator: "\n").map(String.init)
        // Version 1 had no end lines.
        var earlier = current.filter { !$0.contains("\"end\":") }
        #expect(earlier.count == current.count - 1)
        earlier[0] = earlier[0].replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
        let recording = try Recording<TodoState>(data: Data((earlier.joined(separator: "\n") + "\n").utf8))
        // AddTodo, SyncTodos, the ToggleTodo it dispatched, and the CountToggle a rule dispatched.
        #expect(recording.entries.count == 4)
        #expect(recording.ends.isEmpty)
        #expect(try recording.replay(into: TodoApp.replayStore(), items: TodoApp.replayable).matches)
    }

    @Test func aMalformedEndLineIsAnErrorThatNamesTheField() throws {
        let flight = FlightRecorder<TodoState>(capacity: 4)
        flight.begin(stateType: String(reflecting: TodoState.self), initialState: TodoState())
        let header = String(decoding: flight.recordingData(), as: UTF8.self)
        let bad = header + #"{"end":3,"type":"App.Search","time":1,"outcome":"cancelled","cancelledBy":"boredom","duration":0}"# + "\n"
        #expect(throws: RecordingError.malformedLine(
            source: "the recording", line: 2, reason: "its \"cancelledBy\" is not valid (not one of promise, id, latestWins, shutdown)"
        )) {
            try Recording<TodoState>(data: Data(bad.utf8))
        }
    }
}
