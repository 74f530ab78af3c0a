import Dispatch
import Foundation
import Katana
import Testing

// The compiled snippets of Migration.md's entry "Hydra's InvalidationToken → cancel()".
enum MigrationGuideLifetimes {
    struct TodoState: State {
        var todos: [String] = []
    }

    struct SetTodos: StateUpdater {
        let todos: [String]
        func updateState(_ state: inout TodoState) {
            state.todos = todos
        }
    }

    /// A backend that answers after a while (cancellably), counting the calls it began and the
    /// answers it gave. Its first call takes ten minutes, so that call is still running whenever
    /// a test needs it to be (a cancellation ends it at once); later calls take 50 ms.
    final class SlowAPI: Sendable {
        let answered = AnsweredCount()
        let began = AnsweredCount()
        func fetchTodos() async throws -> [String] {
            began.increment()
            try await Task.sleep(for: began.value == 1 ? .seconds(600) : .milliseconds(50))
            answered.increment()
            return ["Buy milk", "Call mum"]
        }
    }

    final class AnsweredCount: @unchecked Sendable {
        // @unchecked: `value` is only touched under `lock`.
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    final class TodoDependencies: SideEffectDependencyContainer {
        let api = SlowAPI()
        init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
    }

    struct RefreshTodos: AsyncSideEffect {
        var cancellationID: SideEffectID? { "refresh todos" }
        var cancelsInFlight: Bool { true }
        func sideEffect(_ context: SideEffectContext<TodoState, TodoDependencies>) async throws {
            let todos = try await context.dependencies.api.fetchTodos()
            try await context.dispatch(SetTodos(todos: todos)).value
        }
    }
}

@Suite struct MigrationGuideLifetimesTests {
    typealias RefreshTodos = MigrationGuideLifetimes.RefreshTodos
    typealias TodoState = MigrationGuideLifetimes.TodoState
    typealias TodoDependencies = MigrationGuideLifetimes.TodoDependencies

    @Test func hydraInvalidationToken() async throws {
        let api = MigrationGuideLifetimes.SlowAPI()
        let todos = Promise<[String]> {
            let fetched = try await api.fetchTodos()
            try Task.checkCancellation()
            return fetched
        }
        todos.cancel()
        #expect(todos.isCancelled)
        // The task stopped in its cancellable sleep: the backend never answered.
        try await Task.sleep(for: .milliseconds(100))
        #expect(api.answered.value == 0)

        let store = Store<TodoState, TodoDependencies>(
            interceptors: [],
            stateInitializer: { TodoState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "migration.lifetimes"))
        )
        let first = store.dispatch(RefreshTodos())
        // The first is running (in its call to the backend) before the second is dispatched.
        #expect(eventually(timeout: .seconds(60)) { store.dependencies.api.began.value == 1 })
        let second = store.dispatch(RefreshTodos())            // the first one is cancelled if it is still running
        try await second.value
        #expect(first.isCancelled)
        #expect(store.state.todos == ["Buy milk", "Call mum"])
        let third = store.dispatch(RefreshTodos())
        store.cancelSideEffects(id: "refresh todos")
        #expect(third.isCancelled)
    }
}
