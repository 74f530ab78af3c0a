import Dispatch
import Katana
import KatanaTestSupport
import Testing

// The compiled snippet of Migration.md's "Behaviour you may notice": the switch for Katana 3.x's
// listener call when the store becomes ready.

@Suite struct MigrationGuideBehaviourTests {
    typealias AppState = Guide.AppState
    typealias AppDependencies = Guide.AppDependencies

    struct AddTodo: StateUpdater {
        let title: String
        func updateState(_ state: inout AppState) {
            state.todos.append(title)
        }
    }

    /// The main queue is held while the store is made and the listener added, as the main thread
    /// holds it in a 3.x app; once it runs, the listener hears the ready call, then the change.
    @Test func readyListenerCall_switchedOn_reachesAListenerAddedRightAfterTheStoreIsMade() async throws {
        let mainHeld = LockedList<String>()
        let releaseMain = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            mainHeld.append("held")
            _ = releaseMain.wait(timeout: .now() + 600)
        }
        defer { releaseMain.signal() }
        // The test runner drains the main queue, so this returns once the main queue is held.
        try await mainHeld.waitForCount(1)

        let interceptors: [StoreInterceptor] = []
        let store = Store<AppState, AppDependencies>(
            interceptors: interceptors,
            stateInitializer: AppState.init,
            configuration: .init(listenersAsyncProvider: DispatchQueue.main, callsListenersWhenReady: true)
        )
        let heard = Guide.Changes()
        let firstCallSawNoTodos = Guide.Changes()
        store.addListener { old, new in
            if heard.value == 0, old.todos.isEmpty, new.todos.isEmpty {
                firstCallSawNoTodos.increment()
            }
            heard.increment()
        }
        let added = store.dispatch(AddTodo(title: "Buy milk"))
        releaseMain.signal()
        try await added.settled()
        #expect(heard.value == 2)
        #expect(firstCallSawNoTodos.value == 1)
    }
}
