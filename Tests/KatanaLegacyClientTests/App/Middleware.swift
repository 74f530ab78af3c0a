import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport

/// Where the app's middleware write; a test reads it back.
let analyticsLog = LockedList<String>()
let actionLog = LockedList<String>()

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
