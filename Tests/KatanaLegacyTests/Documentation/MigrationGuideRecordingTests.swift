import Foundation
import Katana
import KatanaLegacy
import KatanaRecording
import KatanaTestSupport
import KatanaTesting
import Testing

// The compiled snippets of Migration.md's entry "Record before you migrate".
enum MigrationGuideRecording {
    struct TodoList: State, Codable, Equatable {
        var todos: [Todo] = []
    }

    struct Todo: Codable, Equatable {
        var title: String
        var priority = 0
        var done = false
    }

    /// The 2.x action, before the migration, made Codable so that it can be replayed.
    @available(*, deprecated, message: "The 2.x action the guide migrates")
    struct AddTodoAction: Action, Codable {
        let title: String
        let urgent: Bool

        func updatedState(currentState: State) -> State {
            guard var state = currentState as? TodoList else { return currentState }
            state.todos.append(Todo(title: title, priority: urgent ? 2 : 1))
            return state
        }
    }

    /// A 2.x action the guide's feature does not touch.
    @available(*, deprecated, message: "The 2.x action the guide migrates")
    struct CompleteTodoAction: Action, Codable {
        let index: Int

        func updatedState(currentState: State) -> State {
            guard var state = currentState as? TodoList, state.todos.indices.contains(index) else { return currentState }
            state.todos[index].done = true
            return state
        }
    }

    /// The rewrite of `AddTodoAction`: the same fields, so the same encoding.
    struct AddTodo: StateUpdater, Codable {
        let title: String
        let urgent: Bool

        func updateState(_ state: inout TodoList) {
            state.todos.append(Todo(title: title, priority: urgent ? 2 : 1))
        }
    }

    /// The rewrite with the mistake the guide shows being caught.
    enum Mistaken {
        struct AddTodo: StateUpdater, Codable {
            let title: String
            let urgent: Bool

            func updateState(_ state: inout TodoList) {
                state.todos.append(Todo(title: title, priority: urgent ? 1 : 1))
            }
        }
    }
}

@Suite struct MigrationGuideRecordingTests {
    typealias TodoList = MigrationGuideRecording.TodoList
    typealias AddTodo = MigrationGuideRecording.AddTodo
    @available(*, deprecated, message: "The 2.x actions the guide migrates")
    typealias AddTodoAction = MigrationGuideRecording.AddTodoAction
    @available(*, deprecated, message: "The 2.x actions the guide migrates")
    typealias CompleteTodoAction = MigrationGuideRecording.CompleteTodoAction

    /// A session of the 2.x app, recorded to `sessionURL`, as the guide's first step does it.
    @available(*, deprecated, message: "Records the 2.x actions before their migration")
    private func recordSession(to sessionURL: URL) async throws {
        // In the 2.x app, once it runs on this package: the recorder goes first in the chain.
        let recordingFile = try RecordingFile<TodoList>(writingTo: sessionURL)
        let store = Store<TodoList, EmptySideEffectDependencyContainer>(
            interceptors: Interceptors {
                StoreRecorder(to: recordingFile)
            },
            stateInitializer: { TodoList() }
        )
        // ... the app runs: here, three of its actions ...
        try await store.dispatch(AddTodoAction(title: "Buy milk", urgent: false)).settled()
        try await store.dispatch(AddTodoAction(title: "Pay rent", urgent: true)).settled()
        try await store.dispatch(CompleteTodoAction(index: 0)).settled()
        recordingFile.close()   // at the end of the session: everything written
    }

    /// Runs `body` with a temporary file holding a session recorded by ``recordSession(to:)``,
    /// then removes the file.
    @available(*, deprecated, message: "Records the 2.x actions before their migration")
    private func withRecordedSession(_ body: (URL) throws -> Void) async throws {
        let sessionURL = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: sessionURL) }
        try await recordSession(to: sessionURL)
        try body(sessionURL)
    }

    @available(*, deprecated, message: "Records the 2.x actions before their migration")
    @Test func theRewriteReplaysTheRecordedSession() async throws {
        try await withRecordedSession { sessionURL in
            let recording = try Recording<TodoList>(contentsOf: sessionURL)
            assertReplay(
                recording,
                into: Store<TodoList, EmptySideEffectDependencyContainer>(),
                items: [AddTodo.self, CompleteTodoAction.self],
                renaming: ["AddTodoAction": AddTodo.self]
            )
        }
    }

    @available(*, deprecated, message: "Records the 2.x actions before their migration")
    @Test func aMistakeInTheRewriteIsCaughtAtTheItemThatTakesItsBranch() async throws {
        let failures = TestFailureRecorder()
        typealias AddTodo = MigrationGuideRecording.Mistaken.AddTodo
        var sessionPath = ""
        try await withRecordedSession { sessionURL in
            sessionPath = sessionURL.path
            // The replay of the snippet above, with the mistaken rewrite and a reporter that keeps the failure.
            let recording = try Recording<TodoList>(contentsOf: sessionURL)
            let store = Store<TodoList, EmptySideEffectDependencyContainer>()
            assertReplay(recording, into: store, items: [AddTodo.self, CompleteTodoAction.self], renaming: ["AddTodoAction": AddTodo.self], reporter: failures.reporter)
        }
        // The urgent todo, the second item, is the first to take the mistaken branch.
        #expect(failures.messages.count == 1)
        let message = try #require(failures.messages.first)
        #expect(message.hasPrefix("Replay of \(sessionPath): The replayed state differs from the recorded one after item 2 (line 3), a KatanaLegacyTests.MigrationGuideRecording.AddTodoAction"))
        #expect(message.contains("−       priority: 2,"))
        #expect(message.contains("+       priority: 1,"))
        print(message)
    }
}
