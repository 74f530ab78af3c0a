import Foundation
import Katana
import KatanaLegacy

/// Where the app's middleware write; a test reads it back.
final class EventLog {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

let analyticsLog = EventLog()
let actionLog = EventLog()

/// Middleware 1: analytics, tracking the session events after they are handled.
let analyticsMiddleware: StoreMiddleware = { getState, dispatch in
    return { next in
        return { action in
            next(action)
            guard let state = getState() as? AppState else { return }
            if action is LoginSucceeded {
                analyticsLog.append("login \(state.session.userName ?? "?")")
            } else if action is LoginFailed {
                analyticsLog.append("login failed after \(state.session.loginAttempts) attempt(s)")
            }
        }
    }
}

/// Middleware 2: blocks edits to to-dos while nobody is logged in.
let requireLoginMiddleware: StoreMiddleware = { getState, dispatch in
    return { next in
        return { action in
            let isEdit = action is AddTodo || action is RemoveTodo || action is RenameTodo
            if isEdit, let state = getState() as? AppState, state.session.userName == nil {
                analyticsLog.append("blocked \(type(of: action))")
                return
            }
            next(action)
        }
    }
}

/// The app's links: every to-do change refreshes the badge; completing the last one celebrates.
let appLinks = [
    ActionLinks(source: AddTodo.self, links: [UpdateBadge.self]),
    ActionLinks(source: RemoveTodo.self, links: [UpdateBadge.self]),
    ActionLinks(source: ToggleTodo.self, links: [UpdateBadge.self, CelebrateAllDone.self]),
    ActionLinks(source: ClearCompleted.self, links: [UpdateBadge.self]),
    ActionLinks(source: SyncTodos.self, links: [UpdateBadge.self]),
]
