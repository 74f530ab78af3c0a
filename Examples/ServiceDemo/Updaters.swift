import Katana

/// Stores a freshly loaded configuration.
struct SetConfiguration: StateUpdater, Codable {
    let configuration: ServiceConfiguration

    func updateState(_ state: inout DemoState) {
        state.configuration = configuration
    }
}

/// Counts a reload, once its configuration is stored and applied (`LoadConfiguration` dispatches
/// it after `SetConfiguration`'s promise, which settles once the listeners, the log level's among
/// them, have run): what reacts to a reload sees the new configuration in force.
struct CountReload: StateUpdater, Codable {
    func updateState(_ state: inout DemoState) {
        state.reloads += 1
    }
}

/// Stores what a search found.
struct SetSearchResult: StateUpdater, Codable {
    let result: SearchResult

    func updateState(_ state: inout DemoState) {
        state.search = result
    }
}
