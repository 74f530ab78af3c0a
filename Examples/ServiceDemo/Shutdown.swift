import Katana
import NotificationBridge

/// The graceful shutdown: stop the timers, let every pending dispatch finish, print a summary and
/// tell the main thread it may exit.
struct Shutdown: AsyncSideEffect {
    let signalName: String

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) async throws {
        let dependencies = context.dependencies
        DemoLog.write("received \(signalName): shutting down")
        try await context.dispatch(SetStatus(status: .stopping)).value
        dependencies.bridge.cancelAll()
        DemoLog.write("timers and signal subscriptions cancelled")
        // Updaters run in order: once this one is applied, every update dispatched before it is too.
        try await context.dispatch(SetStatus(status: .stopped)).value
        let state = context.getState()
        let uptime = ContinuousClock.now - dependencies.startedAt
        DemoLog.write(
            "summary: ticks=\(state.ticks) reloads=\(state.reloads) status=\(state.status.rawValue) "
                + "log level=\(state.configuration?.logLevel ?? "none") uptime=\(uptime.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2))))"
        )
        dependencies.finished.signal()
    }
}
