// A small to-do app written against the Katana 2.x API, the way a 2.x codebase looks.
// The only edits from 2.x are the ones Migration.md lists as unavoidable (see AppStore.swift).
import Katana
import KatanaLegacy

struct Todo: Equatable {
    let id: Int
    var title: String
    var isDone: Bool
}

enum TodoFilter {
    case all, active, completed
}

struct TodosState {
    var items: [Todo] = []
    var nextID = 1
    var filter: TodoFilter = .all
    var remainingBadge = 0
    var celebrations = 0

    var visible: [Todo] {
        switch filter {
        case .all: return items
        case .active: return items.filter { !$0.isDone }
        case .completed: return items.filter { $0.isDone }
        }
    }
}

struct SessionState {
    var userName: String?
    var loginAttempts = 0
    var lastLoginError: String?
}

struct SyncState {
    var status = "idle"
    var progress: Double = 0
    var lastError: String?
    var completedSyncs = 0
}

struct AppState: State {
    var todos = TodosState()
    var session = SessionState()
    var sync = SyncState()
}
