import Foundation
import Katana
import KatanaLegacy
import KatanaObservers
import KatanaRecording
import KatanaTestSupport

/// The app the recording tests record: a todo list with updaters, a synchronous and an async side
/// effect, an observer rule and a 2.x action.
struct TodoState: State, Codable, Equatable {
    var todos: [Todo] = []
    var toggles = 0
    var loads = 0

    struct Todo: Codable, Equatable {
        var title: String
        var done = false
        var priority = 0
    }
}

typealias TodoStore = Store<TodoState, EmptySideEffectDependencyContainer>

struct AddTodo: StateUpdater, Codable {
    var title: String
    var priority = 0
    func updateState(_ state: inout TodoState) {
        state.todos.append(.init(title: title, priority: priority))
    }
}

struct ToggleTodo: StateUpdater, Codable {
    var index: Int
    func updateState(_ state: inout TodoState) {
        guard state.todos.indices.contains(index) else { return }
        state.todos[index].done.toggle()
    }
}

/// Dispatched by the observer rule for every toggle.
struct CountToggle: StateUpdater, Codable {
    func updateState(_ state: inout TodoState) {
        state.toggles += 1
    }
}

struct CountLoad: StateUpdater, Codable {
    func updateState(_ state: inout TodoState) {
        state.loads += 1
    }
}

/// A synchronous side effect: adds the titles it "loads".
struct LoadTodos: SideEffect, Codable {
    var titles: [String]
    func sideEffect(_ context: SideEffectContext<TodoState, EmptySideEffectDependencyContainer>) throws {
        // Waits on the store's work from inside it: the default test bound, as for any wait.
        for title in titles {
            try context.dispatch(AddTodo(title: title)).wait(timeout: defaultTestTimeout)
        }
        try context.dispatch(CountLoad()).wait(timeout: defaultTestTimeout)
    }
}

/// An async side effect: toggles the first todo.
struct SyncTodos: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<TodoState, EmptySideEffectDependencyContainer>) async throws {
        try await context.dispatch(ToggleTodo(index: 0)).value
    }
}

/// A 2.x action, as the app had it before its migration (Swift 5-style `Action`).
@available(*, deprecated)
struct AddTodoAction: Action, Codable {
    var title: String
    var urgent: Bool
    func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? TodoState else { return currentState }
        state.todos.append(.init(title: title, priority: urgent ? 2 : 1))
        return state
    }
}

/// The migrated form of ``AddTodoAction``, with the same encoding.
struct AddTodoRewritten: StateUpdater, Codable {
    var title: String
    var urgent: Bool
    func updateState(_ state: inout TodoState) {
        state.todos.append(.init(title: title, priority: urgent ? 2 : 1))
    }
}

/// A migration with a bug in one branch: urgent todos get the wrong priority.
struct AddTodoRewrittenWithABug: StateUpdater, Codable {
    var title: String
    var urgent: Bool
    func updateState(_ state: inout TodoState) {
        state.todos.append(.init(title: title, priority: urgent ? 1 : 1))
    }
}

/// Not Encodable: recorded with its rendering, not replayable.
struct RenameAll: StateUpdater {
    let transform: @Sendable (String) -> String
    func updateState(_ state: inout TodoState) {
        for index in state.todos.indices {
            state.todos[index].title = transform(state.todos[index].title)
        }
    }
}

enum TodoApp {
    /// The item types a replay of the app's recordings decodes.
    static let replayable: [any ReplayableItem.Type] = [AddTodo.self, ToggleTodo.self, CountToggle.self, CountLoad.self]

    /// The app's store, recording into `sinks`: the recorder first, then the observer rule.
    static func store(recordingInto sinks: [any RecordingSink<TodoState>]) -> TodoStore {
        TodoStore(interceptors: Interceptors {
            StoreRecorder(to: sinks)
            ObserverInterceptor.rules(notificationCenter: NotificationCenter()) {
                OnDispatch(ToggleTodo.self) { _ in CountToggle() }
            }
        })
    }

    /// Plays the session every recording test records, and waits until the store is idle. It
    /// awaits rather than blocks: the async side effect needs a thread of the cooperative pool,
    /// which blocked tests running in parallel could all hold.
    @available(*, deprecated)
    static func playSession(on store: TodoStore) async throws {
        try await store.dispatch(AddTodo(title: "milk")).settled()
        try await store.dispatch(LoadTodos(titles: ["bread", "eggs"])).settled()
        try await store.dispatch(SyncTodos()).settled()
        try await store.dispatch(AddTodoAction(title: "taxes", urgent: true)).settled()
        try await store.dispatch(AddTodoAction(title: "plants", urgent: false)).settled()
        try await store.dispatch(ToggleTodo(index: 1)).settled()
        try await store.waitUntil("the rule's two toggle counts") { store.state.toggles == 2 }
        // The recorder appends an item once `next` has returned, after the state changed: the
        // store is idle once the last item's interceptors, the recorder's included, are done.
        try await store.waitUntilIdle()
    }

    /// A fresh store for replays: the state and updaters, no interceptors.
    static func replayStore() -> TodoStore {
        TodoStore()
    }
}

/// A temporary file path, removed by the caller.
func temporaryRecordingURL(_ name: String = #function) -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("katana-recording-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).jsonl")
}

extension TodoStore {
    /// Dispatches `updater` and waits until the store is idle, for a test that reads what was
    /// recorded next: the updater's promise can settle before the recorder, the first interceptor,
    /// has appended its item. Throws the updater's rejection, once the store is idle.
    func dispatchRecorded(_ updater: some AnyStateUpdater) async throws {
        var rejection: (any Error)?
        do {
            try await dispatch(updater).settled()
        } catch {
            rejection = error
        }
        try await waitUntilIdle()
        if let rejection { throw rejection }
    }
}
