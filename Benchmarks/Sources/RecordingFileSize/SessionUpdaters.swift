import Katana

// The updaters of the recorded session: seven kinds, each changing one or two fields of
// `SessionState`, all `Codable` so that the recording keeps them (and could replay them).

/// Opens a message: the selection and the unread count.
struct SelectMessage: StateUpdater, Codable {
    let index: Int
    func updateState(_ state: inout SessionState) {
        state.selectedMessage = index
        state.unreadCount -= 1
    }
}

/// Scrolls the message list.
struct Scroll: StateUpdater, Codable {
    let offset: Int
    func updateState(_ state: inout SessionState) {
        state.scrollOffset = offset
    }
}

/// Retitles the draft.
struct EditDraftSubject: StateUpdater, Codable {
    let subject: String
    func updateState(_ state: inout SessionState) {
        state.draftSubject = subject
    }
}

/// Runs a search: the query, and the most recent search (an array element).
struct Search: StateUpdater, Codable {
    let query: String
    func updateState(_ state: inout SessionState) {
        state.searchQuery = query
        state.recentSearches[0] = query
    }
}

/// A sync finished: its generation and time.
struct Synced: StateUpdater, Codable {
    let generation: Int
    let time: Int
    func updateState(_ state: inout SessionState) {
        state.syncGeneration = generation
        state.lastSyncedAt = time
    }
}

/// Moves to another screen.
struct Navigate: StateUpdater, Codable {
    let screen: String
    func updateState(_ state: inout SessionState) {
        state.currentScreen = screen
    }
}

/// A label's message count changed (an array element).
struct CountLabel: StateUpdater, Codable {
    let label: Int
    let count: Int
    func updateState(_ state: inout SessionState) {
        state.labelCounts[label] = count
    }
}

/// Dispatches the session's updater number `step`: the kinds take turns, with values that vary.
@discardableResult
func dispatchSessionStep(_ step: Int, to store: Store<SessionState, EmptySideEffectDependencyContainer>) -> Promise<Void> {
    let screens = ["inbox", "message", "compose", "search", "settings"]
    switch step % 7 {
    case 0: return store.dispatch(SelectMessage(index: step % 500))
    case 1: return store.dispatch(Scroll(offset: (step * 37) % 20_000))
    case 2: return store.dispatch(EditDraftSubject(subject: "Notes on the Analytical Engine, draft \(step / 7)"))
    case 3: return store.dispatch(Search(query: "from:babbage \(step % 97)"))
    case 4: return store.dispatch(Synced(generation: step / 7, time: 1_795_000_000 + step))
    case 5: return store.dispatch(Navigate(screen: screens[(step / 7) % screens.count]))
    default: return store.dispatch(CountLabel(label: (step / 7) % 10, count: step % 60))
    }
}
