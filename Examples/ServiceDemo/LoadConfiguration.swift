import Katana
import NotificationBridge

/// Reads the configuration and stores it: on start (which also starts the heartbeat) and on every
/// SIGHUP. A reload that fails keeps the configuration the service already has.
struct LoadConfiguration: AsyncSideEffect {
    enum Reason: Sendable {
        case start, reload
    }

    let reason: Reason

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) async throws {
        let dependencies = context.dependencies
        let configuration: ServiceConfiguration
        do {
            configuration = try dependencies.readConfiguration()
        } catch {
            DemoLog.write("configuration \(reason == .start ? "load" : "reload") failed, keeping the current one: \(error)")
            throw error
        }
        try await context.dispatch(SetConfiguration(configuration: configuration, isReload: reason == .reload)).value
        switch reason {
        case .start:
            DemoLog.write("configuration loaded: log level \(configuration.logLevel), heartbeat every \(configuration.heartbeatMilliseconds) ms")
            try dependencies.bridge.post(.heartbeat, every: .milliseconds(configuration.heartbeatMilliseconds))
        case .reload:
            DemoLog.write("configuration reloaded (reload #\(context.getState().reloads))")
        }
    }
}
