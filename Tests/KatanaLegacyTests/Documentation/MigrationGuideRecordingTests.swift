import Foundation
import Katana
import KatanaLegacy
import KatanaRecording
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
    private func recordSession(to sessionURL: URL) throws {
        // In the 2.x app, once it runs on this package: the recorder goes first in the chain.
        let recordingFile = try RecordingFile<TodoList>(writingTo: sessionURL)
        let store = Store<TodoList, EmptySideEffectDependencyContainer>(
            interceptors: Interceptors {
                StoreRecorder(to: recordingFile)
            },
            stateInitializer: { TodoList() }
        )
        // ... the app runs: here, three of its actions ...
        try store.dispatch(AddTodoAction(title: "Buy milk", urgent: false)).wait(timeout: .seconds(5))
        try store.dispatch(AddTodoAction(title: "Pay rent", urgent: true)).wait(timeout: .seconds(5))
        try store.dispatch(CompleteTodoAction(index: 0)).wait(timeout: .seconds(5))
        recordingFile.close()   // at the end of the session: everything written
    }

    @available(*, deprecated, message: "Records the 2.x actions before their migration")
    @Test func theRewriteReplaysTheRecordedSession() throws {
        let sessionURL = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: sessionURL) }
        try recordSession(to: sessionURL)

        let recording = try Recording<TodoList>(contentsOf: sessionURL)
        assertReplay(
            recording,
            into: Store<TodoList, EmptySideEffectDependencyContainer>(),
            items: [AddTodo.self, CompleteTodoAction.self],
            renaming: ["AddTodoAction": AddTodo.self]
        )
    }

    @available(*, deprecated, message: "Records the 2.x actions before their migration")
    @Test func aMistakeInTheRewriteIsCaughtAtTheItemThatTakesItsBranch() throws {
        let sessionURL = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: sessionURL) }
        try recordSession(to: sessionURL)
        let recording = try Recording<TodoList>(contentsOf: sessionURL)
        let failures = TestFailureRecorder()
        typealias AddTodo = MigrationGuideRecording.Mistaken.AddTodo

        assertReplay(
            recording,
            into: Store<TodoList, EmptySideEffectDependencyContainer>(),
            items: [AddTodo.self, CompleteTodoAction.self],
            renaming: ["AddTodoAction": AddTodo.self],
            reporter: failures.reporter
        )
        // The urgent todo, the second item, is the first to take the mistaken branch.
        #expect(failures.messages.count == 1)
        let message = try #require(failures.messages.first)
        #expect(message.hasPrefix("Replay of \(sessionURL.path): The replayed state differs from the recorded one after item 2 (line 3), a KatanaLegacyTests.MigrationGuideRecording.AddTodoAction"))
        #expect(message.contains("−       priority: 2,"))
        #expect(message.contains("+       priority: 1,"))
        print(message)
    }
}
