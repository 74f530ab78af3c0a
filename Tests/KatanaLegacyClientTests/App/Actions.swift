import Katana
import KatanaLegacy

/// The usual 2.x helper: actions mutate a typed `AppState`.
protocol AppAction: Action {
    func updatedState(currentState: inout AppState)
}

/// Runs `update` on `state` when it is an `AppState`; any other state passes through unchanged.
private func updatingAppState(_ state: State, _ update: (inout AppState) -> Void) -> State {
    guard var appState = state as? AppState else { return state }
    update(&appState)
    return appState
}

extension AppAction {
    func updatedState(currentState: State) -> State {
        updatingAppState(currentState) { self.updatedState(currentState: &$0) }
    }
}

/// The same helper for async actions.
protocol AppAsyncAction: AsyncAction {
    func updatedStateForLoading(currentState: inout AppState)
    func updatedStateForCompleted(currentState: inout AppState)
    func updatedStateForFailed(currentState: inout AppState)
    func updatedStateForProgress(currentState: inout AppState)
}

extension AppAsyncAction {
    func updatedStateForLoading(currentState: State) -> State {
        updatingAppState(currentState) { self.updatedStateForLoading(currentState: &$0) }
    }

    func updatedStateForCompleted(currentState: State) -> State {
        updatingAppState(currentState) { self.updatedStateForCompleted(currentState: &$0) }
    }

    func updatedStateForFailed(currentState: State) -> State {
        updatingAppState(currentState) { self.updatedStateForFailed(currentState: &$0) }
    }

    func updatedStateForProgress(currentState: State) -> State {
        updatingAppState(currentState) { self.updatedStateForProgress(currentState: &$0) }
    }
}

// MARK: - To-dos

struct AddTodo: AppAction {
    let title: String

    func updatedState(currentState state: inout AppState) {
        state.todos.items.append(Todo(id: state.todos.nextID, title: title, isDone: false))
        state.todos.nextID += 1
    }
}

struct ToggleTodo: AppAction {
    let id: Int

    func updatedState(currentState state: inout AppState) {
        guard let index = state.todos.items.firstIndex(where: { $0.id == id }) else { return }
        state.todos.items[index].isDone.toggle()
    }
}

struct RenameTodo: AppAction {
    let id: Int
    let title: String

    func updatedState(currentState state: inout AppState) {
        guard let index = state.todos.items.firstIndex(where: { $0.id == id }) else { return }
        state.todos.items[index].title = title
    }
}

struct RemoveTodo: AppAction {
    let id: Int

    func updatedState(currentState state: inout AppState) {
        state.todos.items.removeAll { $0.id == id }
    }
}

struct ClearCompleted: AppAction {
    func updatedState(currentState state: inout AppState) {
        state.todos.items.removeAll { $0.isDone }
    }
}

struct SetFilter: AppAction {
    let filter: TodoFilter

    func updatedState(currentState state: inout AppState) {
        state.todos.filter = filter
    }
}

// MARK: - Linked actions

/// Linked to every to-do change: keeps the badge equal to the number of open to-dos.
struct UpdateBadge: LinkeableAction, AppAction {
    let remaining: Int

    init?(oldState: State, newState: State, sourceAction: Action) {
        guard let newState = newState as? AppState else { return nil }
        remaining = newState.todos.items.filter { !$0.isDone }.count
    }

    func updatedState(currentState state: inout AppState) {
        state.todos.remainingBadge = remaining
    }
}

/// Linked to `ToggleTodo`: only when the last open to-do was just completed.
struct CelebrateAllDone: LinkeableAction, AppAction {
    init?(oldState: State, newState: State, sourceAction: Action) {
        guard let oldState = oldState as? AppState,
              let newState = newState as? AppState,
              oldState.todos.items.contains(where: { !$0.isDone }),
              !newState.todos.items.isEmpty,
              newState.todos.items.allSatisfy({ $0.isDone })
        else { return nil }
    }

    func updatedState(currentState state: inout AppState) {
        state.todos.celebrations += 1
    }
}

// MARK: - Session

struct Login: AppAction, ActionWithSideEffect {
    let user: String
    let password: String

    func updatedState(currentState state: inout AppState) {
        state.session.loginAttempts += 1
        state.session.lastLoginError = nil
    }

    func sideEffect(
        currentState: State,
        previousState: State,
        dispatch: @escaping StoreDispatch,
        dependencies: SideEffectDependencyContainer
    ) {
        guard let dependencies = dependencies as? DependenciesContainer else { return }
        if dependencies.api.login(user: user, password: password) {
            dispatch(LoginSucceeded(user: user))
        } else {
            dispatch(LoginFailed(reason: "wrong password for \(user)"))
        }
    }
}

struct LoginSucceeded: AppAction {
    let user: String

    func updatedState(currentState state: inout AppState) {
        state.session.userName = user
    }
}

struct LoginFailed: AppAction {
    let reason: String

    func updatedState(currentState state: inout AppState) {
        state.session.lastLoginError = reason
    }
}

struct Logout: AppAction, ActionWithSideEffect {
    func updatedState(currentState state: inout AppState) {
        state.session.userName = nil
    }

    func sideEffect(
        currentState: State,
        previousState: State,
        dispatch: @escaping StoreDispatch,
        dependencies: SideEffectDependencyContainer
    ) {
        // Logging out also drops whatever was already done.
        dispatch(ClearCompleted())
    }
}

// MARK: - Sync

struct SyncTodos: AppAsyncAction, ActionWithSideEffect {
    var state: AsyncActionState = .loading
    var fetched: [String] = []
    var error: String?

    func updatedStateForLoading(currentState state: inout AppState) {
        state.sync.status = "syncing"
        state.sync.progress = 0
    }

    func updatedStateForProgress(currentState state: inout AppState) {
        state.sync.progress = self.state.progressPercentage ?? state.sync.progress
    }

    func updatedStateForCompleted(currentState state: inout AppState) {
        for title in fetched {
            state.todos.items.append(Todo(id: state.todos.nextID, title: title, isDone: false))
            state.todos.nextID += 1
        }
        state.sync.status = "synced"
        state.sync.progress = 1
        state.sync.completedSyncs += 1
    }

    func updatedStateForFailed(currentState state: inout AppState) {
        state.sync.status = "failed"
        state.sync.lastError = error
    }

    func sideEffect(
        currentState: State,
        previousState: State,
        dispatch: @escaping StoreDispatch,
        dependencies: SideEffectDependencyContainer
    ) {
        guard let dependencies = dependencies as? DependenciesContainer else { return }
        let titles = dependencies.api.fetchTodos { percentage in
            dispatch(self.progressAction(percentage: percentage))
        }
        if let titles = titles {
            dispatch(self.completedAction { $0.fetched = titles })
        } else {
            dispatch(self.failedAction { $0.error = "offline" })
        }
    }
}
