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
        if state.status == .starting {
            state.status = .running
        }
    }
}

/// Moves the service to another stage of its life.
struct SetStatus: StateUpdater {
    let status: DemoState.Status

    func updateState(_ state: inout DemoState) {
        state.status = status
    }
}
