import Katana
import KatanaLegacy
import KatanaTesting
import Testing

// The compiled snippets of Migration.md's entry "Testing a migrated feature": the guide's app
// state and its `AddTodo`, as the 2.x action and as the updater it becomes.
@Suite struct MigrationGuideTestingTests {
    typealias TodoList = Guide.AppState
    typealias AddTodo = Guide.ActionToStateUpdater.After.AddTodo
    @available(*, deprecated, message: "The 2.x action the guide migrates")
    typealias AddTodoAction = Guide.ActionToStateUpdater.Before.AddTodo

    // The 2.x feature, tested as it is (the test is marked deprecated like the code it exercises).
    @available(*, deprecated, message: "Tests the 2.x action before its migration")
    @Test func addingATodo_before() async {
        let store = TestStore<TodoList, EmptySideEffectDependencyContainer>(initialState: TodoList())
        await store.send(AddTodoAction(title: "Buy milk")) { $0.todos = ["Buy milk"] }
        await store.send(AddTodoAction(title: "Call mum")) { $0.todos = ["Buy milk", "Call mum"] }
        await store.finish()
    }

    // The same test after the migration: the items are modern, the steps and states are the same.
    @Test func addingATodo_after() async {
        let store = TestStore<TodoList, EmptySideEffectDependencyContainer>(initialState: TodoList())
        await store.send(AddTodo(title: "Buy milk")) { $0.todos = ["Buy milk"] }
        await store.send(AddTodo(title: "Call mum")) { $0.todos = ["Buy milk", "Call mum"] }
        await store.finish()
    }
}
