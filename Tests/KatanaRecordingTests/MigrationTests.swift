import Foundation
import Katana
import KatanaRecording
import Testing

/// A session recorded with a 2.x `Action`, replayed against its modern rewrite: the rewrite that
/// keeps the behaviour replays with no difference; one with a bug in one branch is caught at the
/// item that takes that branch, with the diff.
@Suite struct MigrationTests {
    @available(*, deprecated)
    private func recordedSession() async throws -> Recording<TodoState> {
        let flight = FlightRecorder<TodoState>(capacity: 1_000)
        let store = TodoApp.store(recordingInto: [flight])
        try await TodoApp.playSession(on: store)
        return try Recording<TodoState>(data: flight.recordingData(), source: "the 2.x session")
    }

    @available(*, deprecated)
    @Test func theRewriteThatKeepsTheBehaviourReplaysWithNoDifference() async throws {
        let recording = try await recordedSession()
        #expect(recording.entries.contains { $0.typeName.hasSuffix(".AddTodoAction") })
        let report = try recording.replay(
            into: TodoApp.replayStore(), items: TodoApp.replayable, renaming: ["AddTodoAction": AddTodoRewritten.self]
        )
        #expect(report.matches)
    }

    @available(*, deprecated)
    @Test func aBugInOneBranchOfTheRewriteIsReportedAtTheItemThatTakesIt() async throws {
        let recording = try await recordedSession()
        let report = try recording.replay(
            into: TodoApp.replayStore(), items: TodoApp.replayable, renaming: ["AddTodoAction": AddTodoRewrittenWithABug.self]
        )
        let difference = try #require(report.difference)
        // The urgent action ("taxes") is the first to take the wrong branch.
        let urgent = try #require(recording.entries.first { $0.encoding?["title"] == .string("taxes") })
        #expect(difference.position == urgent.position)
        #expect(difference.line == urgent.line)
        #expect(difference.typeName == urgent.typeName)
        #expect(difference.recordedState?.todos.last?.priority == 2)
        #expect(difference.replayedState.todos.last?.priority == 1)
        let lines = difference.diff.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("−") && $0.contains("priority: 2") })
        #expect(lines.contains { $0.hasPrefix("+") && $0.contains("priority: 1") })
        #expect(difference.description.hasPrefix(
            "The replayed state differs from the recorded one after item \(urgent.position) (line \(urgent.line)), a \(urgent.typeName)"
        ))
    }

    @Test func aStoreThatStartsFromAnotherStateDiffersBeforeTheFirstItem() async throws {
        let flight = FlightRecorder<TodoState>(capacity: 10)
        let store = TodoApp.store(recordingInto: [flight])
        try await store.dispatchRecorded(AddTodo(title: "a"))
        let recording = try Recording<TodoState>(data: flight.recordingData())
        let other = TodoStore(interceptors: [], stateInitializer: { TodoState(todos: [], toggles: 0, loads: 7) })
        let difference = try #require(try recording.replay(into: other, items: TodoApp.replayable).difference)
        #expect(difference.position == 0)
        #expect(difference.typeName == nil)
        #expect(difference.description.contains("before the first item"))
    }
}
