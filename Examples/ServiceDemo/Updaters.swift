import Katana

/// Stores a freshly loaded configuration; a reload also counts.
struct SetConfiguration: StateUpdater {
    let configuration: ServiceConfiguration
    let isReload: Bool

    func updateState(_ state: inout DemoState) {
        state.configuration = configuration
        if isReload {
            state.reloads += 1
        }
    }
}

/// Stores what a search found.
struct SetSearchResult: StateUpdater {
    let result: SearchResult

    func updateState(_ state: inout DemoState) {
        state.search = result
    }
}
