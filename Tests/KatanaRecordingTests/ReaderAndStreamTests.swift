import Foundation
import Katana
import KatanaRecording
import KatanaTestSupport
import Testing

/// A recording read line by line without its state type (what `katana-inspector` does), the
/// changes each item made, and a recording streamed to a function instead of a file.
@Suite struct ReaderAndStreamTests {
    @available(*, deprecated)
    @Test func aReaderRebuildsEveryStateAsTheWholeRecordingDoesAndSaysWhatEachItemChanged() async throws {
        let batches = LockedList<Data>()
        let stream = RecordingStream<TodoState>(snapshotInterval: 4) { batches.append($0) }
        let store = TodoApp.store(recordingInto: [stream])
        try await TodoApp.playSession(on: store)
        stream.flush()
        let lines = batches.lines
        let whole = try Recording<TodoState>(data: Data(lines.joined(separator: [0x0A])) + Data([0x0A]))

        var reader = try RecordingReader(header: lines[0], source: "stream")
        #expect(reader.header.stateType == String(reflecting: TodoState.self))
        #expect(reader.header.statesRecorded)
        var previous = try #require(reader.header.initialState)
        var entriesRead = 0
        var endsRead: [RecordedEnd] = []
        for (index, line) in lines.enumerated().dropFirst() {
            let read = try reader.read(line, number: index + 1)
            if case .end(let end) = read {
                endsRead.append(end)
                continue
            }
            guard case let .entry(entry, changes) = read else {
                Issue.record("line \(index + 1) is neither an item nor an end")
                continue
            }
            let expected = whole.entries[entriesRead]
            entriesRead += 1
            #expect(entry.position == expected.position)
            #expect(entry.typeName == expected.typeName)
            #expect(entry.stateAfter == expected.stateAfter)
            let after = try #require(entry.stateAfter)
            let madeChanges = try #require(changes, "line \(index + 1) has no changes")
            #expect(try madeChanges.applied(to: previous) == after)
            #expect(madeChanges.isEmpty == (previous == after))
            previous = after
        }
        #expect(reader.entryCount == whole.entries.count)
        // Each side effect of the session ended once, as the whole recording read it.
        #expect(endsRead == whole.ends)
        #expect(!endsRead.isEmpty)
        #expect(reader.state == whole.entries.last?.stateAfter)
    }

    @Test func changesAreDescribedFieldByFieldWithTheirValuesBeforeAndAfter() throws {
        let before = try JSONValue(encoding: TodoState(todos: [.init(title: "milk"), .init(title: "bread"), .init(title: "eggs")], toggles: 1))
        let after = try JSONValue(encoding: TodoState(todos: [.init(title: "milk", done: true)], toggles: 1, loads: 2))
        let described = StateChanges(from: before, to: after).described(from: before)
        #expect(described.map { $0.path.map(\.description).joined(separator: ".") } == ["loads", "todos.[1]", "todos.[2]", "todos.[0].done"])
        #expect(described[0].before == .integer(0) && described[0].after == .integer(2))
        #expect(described[1].before?["title"] == .string("bread") && described[1].after == nil)
        #expect(described[2].before?["title"] == .string("eggs") && described[2].after == nil)
        #expect(described[3].path == [.key("todos"), .index(0), .key("done")])
        #expect(described[3].before == .bool(false) && described[3].after == .bool(true))
        #expect(StateChanges(from: before, to: before).isEmpty)
    }

    @Test func aGapIsReadAsOneAndTheStateIsUnknownUntilAWholeStateComes() throws {
        let header = #"{"format":"katana-recording","version":1,"stateType":"S","stateEncoded":true,"started":0,"initialState":{"n":0}}"#
        let item = #"{"position":%d,"sequence":%d,"time":0,"origin":{"from":"outside"},"type":"T","kind":"updater","replayable":false,"outcome":"handled"%@}"#
        var reader = try RecordingReader(header: Data(header.utf8), source: "lines")
        func line(_ position: Int, _ tail: String) -> Data {
            Data(String(format: item, position, position, tail).utf8)
        }
        guard case .entry(let first, let changes) = try reader.read(line(1, #","changes":[{"p":["n"],"v":1}]"#), number: 2) else {
            Issue.record("not an item")
            return
        }
        #expect(first.stateAfter == .object(["n": .integer(1)]))
        #expect(changes?.isEmpty == false)
        guard case .gap(let gap) = try reader.read(Data(#"{"gap":5}"#.utf8), number: 3) else {
            Issue.record("not a gap")
            return
        }
        #expect(gap.line == 3 && gap.dropped == 5 && gap.entriesBefore == 1)
        #expect(reader.state == nil)
        #expect(throws: RecordingError.malformedLine(source: "lines", line: 4, reason: "it has changes to a state, but no state comes before it")) {
            _ = try reader.read(line(7, #","changes":[{"p":["n"],"v":7}]"#), number: 4)
        }
        guard case .entry(let whole, let unknown) = try reader.read(line(8, #","state":{"n":8}"#), number: 5) else {
            Issue.record("not an item")
            return
        }
        #expect(whole.stateAfter == .object(["n": .integer(8)]))
        #expect(unknown == nil, "what an item after a gap changed is not known")
        #expect(throws: RecordingError.self) {
            _ = try RecordingReader(header: Data(#"{"format":"other"}"#.utf8), source: "lines")
        }
    }

    @Test func aStreamThatFallsBehindDropsItemsAndSaysHowMany() async throws {
        let gate = DispatchSemaphore(value: 0)
        // Each batch as it arrives, before it waits at the gate.
        let batches = LockedList<Data>()
        let stream = RecordingStream<TodoState>(bufferLimit: 2) { lines in
            batches.append(lines)
            _ = gate.wait(timeout: .now() + .seconds(Int(holdTimeout.components.seconds)))
        }
        // Whichever way the test ends, the output is let go (the gate holds it for minutes).
        defer { for _ in 0 ..< 3 { gate.signal() } }
        let store = TodoApp.store(recordingInto: [stream])
        // The header's batch waits at the gate; two items fit the buffer, the next three are dropped.
        try await batches.waitForCount(1)
        for title in ["a", "b", "c", "d", "e"] {
            try await store.dispatch(AddTodo(title: title)).settled()
        }
        // A promise can settle before the recorder, an interceptor, has appended its item.
        try await store.waitUntilIdle()
        #expect(stream.droppedCount == 3)
        gate.signal()
        gate.signal()
        gate.signal()
        stream.flush()
        let lines = batches.lines.map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.count == 4)
        #expect(lines[3] == #"{"gap":3}"#)
    }

    @Test func aStreamWhoseOutputThrowsStopsAndSaysWhy() async throws {
        struct Full: Error {}
        let calls = LockedValue(0)
        let stream = RecordingStream<TodoState> { _ in
            calls.withLock { $0 += 1 }
            throw Full()
        }
        let store = TodoApp.store(recordingInto: [stream])
        try await store.dispatch(AddTodo(title: "a")).settled()
        try await store.waitUntilIdle()
        stream.flush()
        #expect(stream.outputFailure is Full)
        try await store.dispatch(AddTodo(title: "b")).settled()
        try await store.waitUntilIdle()
        stream.flush()
        #expect(calls.value == 1)
        #expect(store.state.todos.count == 2)
    }
}

extension LockedList<Data> {
    /// The lines of the batches a recording stream handed over, in order.
    var lines: [Data] {
        Data(all.joined()).split(separator: 0x0A).map { Data($0) }
    }
}
