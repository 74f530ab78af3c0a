import Foundation
import Katana
import KatanaRecording
import Testing

/// A session of updaters, side effects, an observer rule and 2.x actions, recorded to memory and
/// to a file, then replayed into a fresh store of the same code.
@Suite struct RoundTripTests {
    @available(*, deprecated)
    @Test func aSessionRecordedToMemoryAndToAFileReplaysWithNoDifference() async throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let flight = FlightRecorder<TodoState>(capacity: 1_000)
        let file = try RecordingFile<TodoState>(writingTo: url, snapshotInterval: 3)
        let store = TodoApp.store(recordingInto: [flight, file])
        try await TodoApp.playSession(on: store)
        file.close()
        let recordedState = store.state

        let fromMemory = try Recording<TodoState>(data: flight.recordingData(), source: "memory")
        let fromFile = try Recording<TodoState>(contentsOf: url)
        #expect(fromMemory.entries.count == fromFile.entries.count)
        #expect(fromMemory.entries.map(\.typeName) == fromFile.entries.map(\.typeName))
        for recording in [fromMemory, fromFile] {
            let replayStore = TodoApp.replayStore()
            let report = try recording.replay(
                into: replayStore, items: TodoApp.replayable, renaming: ["AddTodoAction": AddTodoRewritten.self]
            )
            #expect(report.difference == nil, "\(report.difference.map(String.init(describing:)) ?? "")")
            #expect(replayStore.state == recordedState)
            // milk, bread, eggs, the load count, the async toggle and its count, two actions, a
            // toggle and its count.
            #expect(report.replayedItems == 10)
            // LoadTodos and SyncTodos.
            #expect(report.skippedItems == 2)
        }
    }

    @available(*, deprecated)
    @Test func eachItemIsRecordedWithWhereItCameFromAndTheStateAfterIt() async throws {
        let flight = FlightRecorder<TodoState>(capacity: 1_000)
        let store = TodoApp.store(recordingInto: [flight])
        try await TodoApp.playSession(on: store)
        let items = flight.items
        #expect(items.map(\.position) == Array(1 ... UInt64(items.count)))

        let load = try #require(items.first { $0.item is LoadTodos })
        #expect(load.kind == .sideEffect)
        #expect(load.origin == .outside)
        let loaded = items.filter { ($0.item as? AddTodo).map { ["bread", "eggs"].contains($0.title) } ?? false }
        #expect(loaded.count == 2)
        for item in loaded {
            #expect(item.origin == .sideEffect(type: String(reflecting: LoadTodos.self), sequence: load.sequence))
            #expect(item.kind == .stateUpdater)
            #expect(item.outcome == .handled)
        }

        let sync = try #require(items.first { $0.item is SyncTodos })
        let asyncToggle = try #require(items.first { ($0.item as? ToggleTodo)?.index == 0 })
        #expect(asyncToggle.origin == .sideEffect(type: String(reflecting: SyncTodos.self), sequence: sync.sequence))

        let counts = items.filter { $0.item is CountToggle }
        #expect(counts.count == 2)
        for count in counts {
            #expect(count.origin == .storeWork(label: "rule OnDispatch(ToggleTodo) { ... }"))
        }

        let action = try #require(items.first { $0.item is AddTodoAction })
        #expect(action.kind == .stateUpdater)
        #expect(action.origin == .outside)
        #expect(action.stateAfter.todos.last == .init(title: "taxes", priority: 2))
    }

    @Test func anItemAnInterceptorBlocksOrRejectsIsRecordedSoAndSkippedByAReplay() async throws {
        struct Gate: Interceptor {
            func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
                if let add = item as? AddTodo, add.title == "blocked" { return }
                if let add = item as? AddTodo, add.title == "rejected" { throw Refusal() }
                try next(item)
            }
        }
        struct Refusal: Error, CustomStringConvertible {
            var description: String { "not today" }
        }
        let flight = FlightRecorder<TodoState>(capacity: 10)
        let store = TodoStore(interceptors: Interceptors {
            StoreRecorder(to: flight)
            Gate()
        })
        try await store.dispatchRecorded(AddTodo(title: "kept"))
        _ = try? await store.dispatchRecorded(AddTodo(title: "blocked"))
        _ = try? await store.dispatchRecorded(AddTodo(title: "rejected"))
        #expect(flight.items.map(\.outcome) == [.handled, .blocked, .rejected("not today")])

        let recording = try Recording<TodoState>(data: flight.recordingData())
        let report = try recording.replay(into: TodoApp.replayStore(), items: TodoApp.replayable)
        #expect(report.matches)
        #expect(report.replayedItems == 1)
        #expect(report.skippedItems == 2)
    }
}
