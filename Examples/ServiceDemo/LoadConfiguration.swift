import Katana

/// Reads the configuration and stores it: on start and on every SIGHUP. A reload that fails keeps
/// the configuration the service already has. What a new configuration changes (the log level,
/// the heartbeat) is applied by those watching the state (`main`'s listener, `DemoRules`).
struct LoadConfiguration: AsyncSideEffect {
    enum Reason: Sendable {
        case start, reload
    }

    let reason: Reason

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) async throws {
        let configuration: ServiceConfiguration
        do {
            configuration = try context.dependencies.readConfiguration()
        } catch {
            DemoLog.warning("configuration \(reason == .start ? "load" : "reload") failed, keeping the current one: \(error)")
            throw error
        }
        // Settles once the listeners have run: the new log level is in force from here on.
        try await context.dispatch(SetConfiguration(configuration: configuration)).value
        if reason == .reload {
            try await context.dispatch(CountReload()).value
        }
        switch reason {
        case .start:
            DemoLog.info("configuration loaded: log level \(configuration.logLevel), heartbeat every \(configuration.heartbeatMilliseconds) ms")
        case .reload:
            DemoLog.info("configuration reloaded (reload #\(context.getState().reloads))")
        }
    }
}
