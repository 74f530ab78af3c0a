import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

// The compiled snippets of Migration.md's Swift Flow part (and of the 3.x existential dispatch): one
// namespace and one test per entry. The "before" code uses the deprecated API, so this part of the
// guide is deprecated itself, which keeps it from warning.

@available(*, deprecated)
extension Guide {
    enum SwiftFlow {
        // The guide's shared types, visible to the entries (declared in extensions of this enum).
        typealias AppState = Guide.AppState
        typealias AppDependencies = Guide.AppDependencies
        typealias API = Guide.API
        typealias Changes = Guide.Changes
        typealias AppStore = Store<AppState, AppDependencies>

        /// Lines recorded from any thread (the snippets write them with `record(_:)`).
        typealias Lines = LockedList<String>
        typealias LegacyAddTodo = Guide.ActionToStateUpdater.Before.AddTodo
        typealias ModernAddTodo = Guide.ActionToStateUpdater.After.AddTodo
    }
}

extension LockedList where Element == String {
    /// Records `line`, as the Swift Flow snippets write.
    func record(_ line: String) {
        append(line)
    }
}

// MARK: - StoreSubscriber / subscribe / unsubscribe → addListener

@available(*, deprecated)
extension Guide.SwiftFlow {
    enum Subscribers {
        enum Before {
            typealias AddTodo = Guide.SwiftFlow.LegacyAddTodo

            final class TodoList: StoreSubscriber {
                let rendered = Changes()
                func newState(state: AppState) {
                    rendered.increment()
                }
            }

            static func appear(in store: AppStore) -> TodoList {
                let todoList = TodoList()
                store.subscribe(todoList)
                return todoList
            }

            static func disappear(_ todoList: TodoList, from store: AppStore) {
                store.unsubscribe(todoList)
            }
        }

        enum After {
            final class TodoList: Sendable {
                let rendered = Changes()
                func render(_ state: AppState) {
                    rendered.increment()
                }
            }

            static func appear(in store: AppStore) -> (TodoList, StoreUnsubscribe) {
                let todoList = TodoList()
                todoList.render(store.state)
                let unsubscribe = store.addListener { _, newState in todoList.render(newState) }
                return (todoList, unsubscribe)
            }

            static func disappear(_ unsubscribe: StoreUnsubscribe) {
                unsubscribe()
            }
        }
    }
}

// MARK: - dispatch(_:callback:) → dispatch(_:) + then

@available(*, deprecated)
extension Guide.SwiftFlow {
    enum Callbacks {
        static func before(store: AppStore, titles: Lines) {
            typealias AddTodo = Guide.SwiftFlow.LegacyAddTodo
            store.dispatch(AddTodo(title: "Buy milk")) { state in
                guard let state = state as? AppState else { return }
                titles.record(state.todos.joined(separator: ", "))
            }
        }

        static func after(store: AppStore, titles: Lines) -> Promise<Void> {
            typealias AddTodo = Guide.SwiftFlow.ModernAddTodo
            let recorded = store.dispatch(AddTodo(title: "Buy milk")).then { _ in
                titles.record(store.state.todos.joined(separator: ", "))
            }
            return recorded
        }
    }
}

// MARK: - ActionCreator → SideEffect

@available(*, deprecated)
extension Guide.SwiftFlow {
    enum Creators {
        enum Before {
            typealias AddTodo = Guide.SwiftFlow.LegacyAddTodo

            static func addTodoIfLoggedIn(title: String) -> ActionCreator {
                return { state, store in
                    guard let state = state as? AppState, state.user != nil else { return nil }
                    return AddTodo(title: title)
                }
            }

            static func run(store: AppStore) {
                store.dispatch(addTodoIfLoggedIn(title: "Buy milk"))
            }
        }

        enum After {
            typealias AddTodo = Guide.SwiftFlow.ModernAddTodo

            struct AddTodoIfLoggedIn: SideEffect {
                let title: String
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) throws {
                    guard context.getState().user != nil else { return }
                    try context.dispatch(AddTodo(title: title)).wait(timeout: .seconds(10))
                }
            }

            static func run(store: AppStore) throws {
                try store.dispatch(AddTodoIfLoggedIn(title: "Buy milk")).wait(timeout: .seconds(10))
            }
        }

        struct LogIn: StateUpdater {
            func updateState(_ state: inout AppState) { state.user = "ada" }
        }
    }
}

// MARK: - AsyncActionCreator → AsyncSideEffect

@available(*, deprecated)
extension Guide.SwiftFlow {
    enum AsyncCreators {
        enum Before {
            struct SetTodos: Action {
                let todos: [String]
                func updatedState(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.todos = todos
                    return state
                }
            }

            static func loadTodos(api: API) -> AsyncActionCreator {
                return { state, store, actionCreatorCallback in
                    DispatchQueue.global().async {
                        let todos = (try? api.fetchTodos()) ?? []
                        actionCreatorCallback { state, store in SetTodos(todos: todos) }
                    }
                }
            }

            static func run(store: AppStore, loaded: Changes) {
                store.dispatch(loadTodos(api: API())) { state in
                    loaded.increment()
                }
            }
        }

        enum After {
            struct SetTodos: StateUpdater {
                let todos: [String]
                func updateState(_ state: inout AppState) { state.todos = todos }
            }

            struct LoadTodos: AsyncSideEffect {
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) async throws {
                    let todos = try await context.dependencies.api.loadTodos()
                    try await context.dispatch(SetTodos(todos: todos)).value
                }
            }

            static func run(store: AppStore, loaded: Changes) async throws {
                try await store.dispatch(LoadTodos()).value
                loaded.increment()
            }
        }
    }
}

// MARK: - dispatchFunction → anyDispatch, appState → state, dispatch(item: Dispatchable) → anyDispatch

@available(*, deprecated)
extension Guide.SwiftFlow {
    enum DispatchFunctions {
        static func before(store: AppStore) {
            typealias AddTodo = Guide.SwiftFlow.LegacyAddTodo
            let dispatch = store.dispatchFunction!
            _ = dispatch(AddTodo(title: "Buy milk"))
        }

        static func after(store: AppStore) throws {
            typealias AddTodo = Guide.SwiftFlow.ModernAddTodo
            let dispatch: AnyDispatch = { store.anyDispatch($0) }
            try dispatch(AddTodo(title: "Buy milk")).wait(timeout: .seconds(10))
        }
    }

    enum AppStateProperty {
        static func before(store: AppStore) -> [String] {
            let todos = (store.appState as? AppState)?.todos ?? []
            return todos
        }

        static func after(store: AppStore) -> [String] {
            let todos = store.state.todos
            return todos
        }
    }

    enum ExistentialDispatch {
        typealias AddTodo = Guide.SwiftFlow.ModernAddTodo

        static func before(store: AppStore) {
            let items: [Dispatchable] = [AddTodo(title: "Buy milk"), AddTodo(title: "Call mum")]
            for item in items {
                store.dispatch(item)
            }
        }

        static func after(store: AppStore) {
            let items: [Dispatchable] = [AddTodo(title: "Buy milk"), AddTodo(title: "Call mum")]
            for item in items {
                store.anyDispatch(item)
            }
        }
    }
}

// MARK: - The tests, one per entry

@Suite struct MigrationGuideSwiftFlowTests {
    typealias AppState = Guide.AppState

    @available(*, deprecated, message: "Exercises the guide's deprecated Swift Flow code")
    @Test func swiftFlowSubscriber() async throws {
        typealias Entry = Guide.SwiftFlow.Subscribers
        let before = Guide.store()
        let legacyList = Entry.Before.appear(in: before)
        #expect(legacyList.rendered.value == 1)
        before.dispatch(Entry.Before.AddTodo(title: "x"))
        try await legacyList.rendered.waitForCount(2)
        #expect(legacyList.rendered.value == 2)
        Entry.Before.disappear(legacyList, from: before)

        let after = Guide.store()
        let (modernList, unsubscribe) = Entry.After.appear(in: after)
        #expect(modernList.rendered.value == 1)
        try await after.dispatch(Guide.SwiftFlow.ModernAddTodo(title: "x")).settled()
        #expect(modernList.rendered.value == 2)
        Entry.After.disappear(unsubscribe)
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated Swift Flow code")
    @Test func swiftFlowDispatchCallback() async throws {
        let before = Guide.store()
        let beforeTitles = Guide.SwiftFlow.Lines()
        Guide.SwiftFlow.Callbacks.before(store: before, titles: beforeTitles)
        try await beforeTitles.waitUntil { $0 == ["Buy milk"] }

        let after = Guide.store()
        let afterTitles = Guide.SwiftFlow.Lines()
        try await Guide.SwiftFlow.Callbacks.after(store: after, titles: afterTitles).settled()
        #expect(afterTitles.all == ["Buy milk"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated Swift Flow code")
    @Test func swiftFlowActionCreator() async throws {
        typealias Entry = Guide.SwiftFlow.Creators
        for loggedIn in [false, true] {
            let before = Guide.store()
            let after = Guide.store()
            if loggedIn {
                try await before.dispatch(Entry.LogIn()).settled()
                try await after.dispatch(Entry.LogIn()).settled()
            }
            Entry.Before.run(store: before)
            // The guide's code blocks (it waits for its dispatch): it runs on a thread of its own.
            try await onThreadOfItsOwn("the guide's action creator's replacement") { try Entry.After.run(store: after) }
            let expected = loggedIn ? ["Buy milk"] : []
            try await before.dispatch(Entry.LogIn()).settled()
            #expect(before.state.todos == expected)
            #expect(after.state.todos == expected)
        }
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated Swift Flow code")
    @Test func swiftFlowAsyncActionCreator() async throws {
        typealias Entry = Guide.SwiftFlow.AsyncCreators
        let before = Guide.store()
        let beforeLoaded = Guide.Changes()
        Entry.Before.run(store: before, loaded: beforeLoaded)
        try await beforeLoaded.waitForCount(1)
        #expect(beforeLoaded.value == 1)
        #expect(before.state.todos == ["Buy milk", "Call mum"])

        let after = Guide.store()
        let afterLoaded = Guide.Changes()
        try await Entry.After.run(store: after, loaded: afterLoaded)
        #expect(afterLoaded.value == 1)
        #expect(after.state.todos == ["Buy milk", "Call mum"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated Swift Flow code")
    @Test func swiftFlowDispatchFunction() async throws {
        let before = Guide.store()
        Guide.SwiftFlow.DispatchFunctions.before(store: before)
        try await before.waitUntil("the 2.x dispatch") { before.state.todos == ["Buy milk"] }
        let after = Guide.store()
        try await onThreadOfItsOwn("the guide's anyDispatch") { try Guide.SwiftFlow.DispatchFunctions.after(store: after) }
        #expect(after.state.todos == ["Buy milk"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated Swift Flow code")
    @Test func swiftFlowAppState() async throws {
        let store = Guide.store()
        try await store.dispatch(Guide.SwiftFlow.ModernAddTodo(title: "x")).settled()
        #expect(Guide.SwiftFlow.AppStateProperty.before(store: store) == ["x"])
        #expect(Guide.SwiftFlow.AppStateProperty.after(store: store) == ["x"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated Swift Flow code")
    @Test func existentialDispatch() async throws {
        for run in [Guide.SwiftFlow.ExistentialDispatch.before, Guide.SwiftFlow.ExistentialDispatch.after] {
            let store = Guide.store()
            run(store)
            try await store.waitUntil("both to-dos") { store.state.todos == ["Buy milk", "Call mum"] }
        }
    }
}
