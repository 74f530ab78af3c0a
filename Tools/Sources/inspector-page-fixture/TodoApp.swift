import Foundation
import Katana
import KatanaRecording

/// The app the inspector's tests record: a todo list whose session has an item of each kind the
/// page shows (updaters, a side effect and what it dispatched, a rejected and a blocked item, and
/// side effects that succeed, fail and are cancelled: EndingSideEffects.swift), some of them
/// dispatched for one of two requests, whose ids the recorder keeps as their correlation.
struct TodoState: State, Codable, Equatable {
    var todos: [Todo] = []
    var filter = "all"
    var nextID = 1

    struct Todo: Codable, Equatable {
        var id: Int
        var title: String
        var done: Bool
    }
}

typealias TodoStore = Store<TodoState, EmptySideEffectDependencyContainer>

struct AddTodo: StateUpdater, Codable {
    var title: String
    func updateState(_ state: inout TodoState) {
        state.todos.append(.init(id: state.nextID, title: title, done: false))
        state.nextID += 1
    }
}

struct ToggleTodo: StateUpdater, Codable {
    var id: Int
    func updateState(_ state: inout TodoState) {
        guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return }
        state.todos[index].done.toggle()
    }
}

struct RenameTodo: StateUpdater, Codable {
    var id: Int
    var title: String
    func updateState(_ state: inout TodoState) {
        guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return }
        state.todos[index].title = title
    }
}

struct RemoveTodo: StateUpdater, Codable {
    var id: Int
    func updateState(_ state: inout TodoState) {
        state.todos.removeAll { $0.id == id }
    }
}

struct SetFilter: StateUpdater, Codable {
    var filter: String
    func updateState(_ state: inout TodoState) {
        state.filter = filter
    }
}

/// Blocked by ``Gate``.
struct Ping: StateUpdater, Codable {
    func updateState(_ state: inout TodoState) {}
}

/// A synchronous side effect that adds the todos it "imports", one at a time.
struct ImportTodos: SideEffect, Codable {
    var titles: [String]
    func sideEffect(_ context: SideEffectContext<TodoState, EmptySideEffectDependencyContainer>) throws {
        for title in titles {
            try context.dispatch(AddTodo(title: title)).wait(timeout: .seconds(10))
        }
    }
}

/// Rejects the removal of a todo that does not exist, and blocks pings.
struct Gate: Interceptor {
    var state: (@Sendable () -> TodoState)?

    mutating func start(in context: any AnySideEffectContext) {
        state = context.stateReader(as: TodoState.self)
    }

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if item is Ping { return }
        if let remove = item as? RemoveTodo, let current = state?(), !current.todos.contains(where: { $0.id == remove.id }) {
            throw MissingTodo(id: remove.id)
        }
        try next(item)
    }
}

struct MissingTodo: Error, CustomStringConvertible {
    let id: Int
    var description: String {
        "no todo with id \(id)"
    }
}

/// The request the session's dispatching code runs for: the store's dispatch context carries it
/// with each item, and into what a side effect dispatches.
enum RequestID {
    @TaskLocal static var current: String?

    /// Reads the request id where an item is dispatched, and puts it back around side effects.
    static let dispatchContext = DispatchContext(
        capture: { current },
        restore: { value, body in $current.withValue(value as? String) { body() } },
        restoreAsync: { value, body in await $current.withValue(value as? String) { await body() } }
    )
}

/// A todo store, and what its recorder has recorded of it.
struct TodoSession: Sendable {
    let store: TodoStore
    let recorded: RecordedSideEffects
}

enum TodoApp {
    /// Items the scripted session dispatches before its renames (positions 1 to 12).
    static let scriptedItems = 12

    /// The requests of the scripted session, and the positions of the items dispatched for each:
    /// the import's `AddTodo` (#4) is dispatched by its side effect (#5), inside its request.
    static let requests: [String: [Int]] = ["request-1": [1, 3, 4, 5], "request-2": [2, 6]]

    /// A store that records into `sink`, with the gate after the recorder; each item carries the
    /// request it was dispatched for, which the recorder keeps as its correlation.
    static func session(recordingInto sink: any RecordingSink<TodoState>) -> TodoSession {
        let recorded = RecordedSideEffects()
        let store = TodoStore(
            interceptors: Interceptors {
                StoreRecorder(to: sink, recorded, correlation: { $0 as? String })
                Gate()
            },
            configuration: .init(dispatchContext: RequestID.dispatchContext)
        )
        return TodoSession(store: store, recorded: recorded)
    }

    /// Dispatches the scripted session (items 1 to 12; 1 to 6 for two requests, ``requests``), then
    /// `extra` renames, each awaited; every side effect has ended, and its end is recorded, when it
    /// returns.
    static func playSession(_ session: TodoSession, extra: Int) async throws {
        let store = session.store
        try await RequestID.$current.withValue("request-1") { try await store.dispatch(AddTodo(title: "Buy milk")).value }
        try await RequestID.$current.withValue("request-2") { try await store.dispatch(AddTodo(title: "Write report")).value }
        try await RequestID.$current.withValue("request-1") {
            try await store.dispatch(ToggleTodo(id: 1)).value
            try await store.dispatch(ImportTodos(titles: ["Call Anna"])).value
        }
        try await RequestID.$current.withValue("request-2") { try await store.dispatch(SetFilter(filter: "open")).value }
        _ = try? await store.dispatch(RemoveTodo(id: 99)).value
        _ = try? await store.dispatch(Ping()).value
        try await playSideEffectsThatEnd(session)
        // Updaters are handled in dispatch order: awaiting the last one awaits them all.
        for version in 1 ... max(1, extra) where extra > 0 {
            let renamed = store.dispatch(RenameTodo(id: 2, title: "Write report v\(version)"))
            if version == extra {
                try await renamed.value
            }
        }
    }

    /// Items 9 to 12: two searches that a newer one cancels (latest wins), the newer one, which
    /// succeeds, and a sync that fails.
    private static func playSideEffectsThatEnd(_ session: TodoSession) async throws {
        let store = session.store
        _ = store.dispatch(SearchTodos(query: "w", backendMilliseconds: 60_000))
        try await session.recorded.wait("the first search to be recorded", items: 9)
        _ = store.dispatch(SearchTodos(query: "wr", backendMilliseconds: 60_000))
        try await session.recorded.wait("the second search to be recorded", items: 10)
        _ = try await store.dispatch(SearchTodos(query: "wri", backendMilliseconds: 20)).value
        _ = try? await store.dispatch(SyncTodos(backendMilliseconds: 30)).value
        try await session.recorded.wait("every side effect to end", items: scriptedItems, allEnded: true)
    }
}
