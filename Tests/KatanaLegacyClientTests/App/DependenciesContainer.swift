import Katana
import KatanaLegacy

/// The app's (stubbed) backend.
struct TodoAPI {
    let validUsers: [String: String]
    let remoteTodos: [String]
    let isReachable: Bool

    func login(user: String, password: String) -> Bool {
        validUsers[user] == password
    }

    func fetchTodos(progress: (Double) -> Void) -> [String]? {
        guard isReachable else { return nil }
        progress(0.5)
        return remoteTodos
    }
}

/// The dependency container, with its 2.x initialiser.
final class DependenciesContainer: LegacySideEffectDependencyContainer {
    let api: TodoAPI
    let dispatch: StoreDispatch
    let getState: GetState

    required init(dispatch: @escaping StoreDispatch, getState: @escaping GetState) {
        self.api = TodoAPI(
            validUsers: ["ada": "lovelace"],
            remoteTodos: ["Buy milk", "Call mum"],
            isReachable: true
        )
        self.dispatch = dispatch
        self.getState = getState
    }

    var appState: AppState? {
        getState() as? AppState
    }
}
