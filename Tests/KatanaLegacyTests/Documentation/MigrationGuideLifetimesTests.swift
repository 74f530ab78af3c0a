import Dispatch
import Foundation
import Katana
import KatanaTestSupport
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

    /// A backend that answers once the test lets it (`isAnswering`; at most ten minutes), waiting
    /// cancellably, and counts the answers it gave: which calls are still running when the test
    /// cancels does not depend on timing.
    final class SlowAPI: Sendable {
        /// How many answers it gave.
        let answered = LockedValue(0)
        /// Each time the test lets calls answer (true) or holds them again (false): a call waits,
        /// woken by each change, until the latest is true.
        private let answering = LockedList<Bool>()
        /// Whether calls answer now.
        var isAnswering: Bool {
            get { answering.all.last ?? false }
            set { answering.append(newValue) }
        }
        func fetchTodos() async throws -> [String] {
            try await answering.waitUntil("the test to let the backend answer", timeout: .seconds(600)) { $0.last == true }
            answered.withLock { $0 += 1 }
            return ["Buy milk", "Call mum"]
        }
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
        // The task stopped in its cancellable wait: the backend never answered.
        try await Task.sleep(for: .milliseconds(100))
        #expect(api.answered.value == 0)

        let store = Store<TodoState, TodoDependencies>(
            interceptors: [],
            stateInitializer: { TodoState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "migration.lifetimes"))
        )
        let first = store.dispatch(RefreshTodos())
        let second = store.dispatch(RefreshTodos())            // the first one is cancelled if it is still running
        // The backend has not answered yet, so the first is still running (or has not begun).
        try await store.waitUntil("the first refresh to be cancelled", timeout: .seconds(60)) { first.isCancelled }
        store.dependencies.api.isAnswering = true
        try await second.value
        #expect(first.isCancelled)
        #expect(store.state.todos == ["Buy milk", "Call mum"])
        store.dependencies.api.isAnswering = false
        let third = store.dispatch(RefreshTodos())
        store.cancelSideEffects(id: "refresh todos")
        #expect(third.isCancelled)
    }
}
