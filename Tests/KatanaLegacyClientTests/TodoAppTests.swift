import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

@Suite(.serialized) struct TodoAppTests {
    @Test func aWholeSession_runsAsItDidOnKatana2() async throws {
        let store = makeAppStore()
        let changes = LockedList<String>()
        let unsubscribe = store.addListener {
            changes.append("changed")
        }

        // Editing before logging in is blocked by the middleware.
        store.dispatch(AddTodo(title: "too early"))
        // A failed login: its side effect dispatches LoginFailed, which analytics tracks.
        store.dispatch(Login(user: "ada", password: "wrong"))
        try await store.waitUntil { store.state.session.lastLoginError == "wrong password for ada" }
        #expect(store.state.todos.items.isEmpty)

        // A successful login.
        store.dispatch(Login(user: "ada", password: "lovelace"))
        try await store.waitUntil { store.state.session.userName == "ada" }
        #expect(store.state.session.loginAttempts == 2)
        try await store.waitUntil { analyticsLog.all.contains("login ada") }

        // To-dos, with the linked badge.
        store.dispatch(AddTodo(title: "Write tests"))
        store.dispatch(AddTodo(title: "Ship it"))
        store.dispatch(RenameTodo(id: 2, title: "Ship it!"))
        try await store.waitUntil { store.state.todos.remainingBadge == 2 }
        // The badge can reach 2 before the rename is handled (its link is dispatched through the store).
        try await store.waitUntil { store.state.todos.items.map { $0.title } == ["Write tests", "Ship it!"] }

        // Completing both: the badge reaches 0 and the last completion celebrates, once.
        store.dispatch(ToggleTodo(id: 1))
        store.dispatch(ToggleTodo(id: 2))
        try await store.waitUntil { store.state.todos.celebrations == 1 && store.state.todos.remainingBadge == 0 }
        store.dispatch(SetFilter(filter: .completed))
        try await store.waitUntil { store.state.todos.visible.count == 2 }

        // The async sync: loading runs the side effect, which reports progress and completes.
        store.dispatch(SyncTodos())
        try await store.waitUntil { store.state.sync.status == "synced" }
        #expect(store.state.sync.progress == 1)
        #expect(store.state.sync.completedSyncs == 1)
        #expect(store.state.todos.items.map { $0.title } == ["Write tests", "Ship it!", "Buy milk", "Call mum"])
        try await store.waitUntil { store.state.todos.remainingBadge == 2 }

        // Logging out clears what was done (its side effect dispatches ClearCompleted, linked to the badge).
        store.dispatch(Logout())
        try await store.waitUntil { store.state.todos.items.map { $0.id } == [3, 4] }
        #expect(store.state.session.userName == nil)
        #expect(store.state.todos.remainingBadge == 2)
        #expect(store.state.todos.celebrations == 1)

        // The middleware saw everything, in order of their own concerns.
        #expect(analyticsLog.all.contains("blocked AddTodo"))
        #expect(analyticsLog.all.contains("login failed after 1 attempt(s)"))
        let logged = actionLog.all
        #expect(logged.contains { $0.hasSuffix("SyncTodos.loading") })
        #expect(logged.contains { $0.hasSuffix("SyncTodos.progress(0.5)") })
        #expect(logged.contains { $0.hasSuffix("SyncTodos.completed") })
        #expect(!logged.contains { $0.contains("SetFilter") })

        // Every handled update reached the zero-argument listener.
        try await changes.waitForCount(15)
        unsubscribe()
    }

    @Test func aFailedSync_keepsTheTodos_andRecordsTheError() async throws {
        let store = makeAppStore()
        store.dispatch(Login(user: "ada", password: "lovelace"))
        try await store.waitUntil { store.state.session.userName == "ada" }
        store.dispatch(AddTodo(title: "Keep me"))
        let sync = SyncTodos()
        store.dispatch(sync.progressAction(percentage: 0.25))
        try await store.waitUntil { store.state.sync.progress == 0.25 }
        store.dispatch(sync.failedAction { $0.error = "offline" })
        try await store.waitUntil { store.state.sync.status == "failed" }
        #expect(store.state.sync.lastError == "offline")
        #expect(store.state.sync.completedSyncs == 0)
        #expect(store.state.todos.items.map { $0.title } == ["Keep me"])
    }

    @Test func theDependencyContainer_dispatchesAndReadsTheState() async throws {
        let store = makeAppStore()
        store.dependencies.dispatch(LoginSucceeded(user: "grace"))
        try await store.waitUntil { store.dependencies.appState?.session.userName == "grace" }
        store.dependencies.dispatch(RemoveTodo(id: 42))
        store.dependencies.dispatch(AddTodo(title: "from a dependency"))
        try await store.waitUntil { store.state.todos.remainingBadge == 1 }
        #expect(store.state.todos.items.first?.title == "from a dependency")
    }
}
