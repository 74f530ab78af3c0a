import Katana

/// The graceful shutdown, run by `main` when the first SIGTERM or SIGINT arrives (see
/// `RequestShutdown`), from outside the store's own work:
///
/// 1. What makes new work stops: the heartbeat timer and the signal subscriptions are cancelled
///    (a second SIGTERM or SIGINT now takes the default action and ends the process at once).
/// 2. `store.shutdown(.finishWork, deadline:)`: the store refuses new dispatches; what was
///    dispatched before (a reload a SIGHUP asked for just before, a search) is handled, together
///    with what that work dispatches itself; what still runs at the deadline (the hour-long
///    warm-up of `--serve`) is cancelled.
///
/// When the store is idle, `store.runUntilShutdown()` returns the same report in `main`, which reads
/// the final state, writes the summary and returns.
enum Shutdown {
    /// How long the work in flight may take to finish. Short, for a demo: a real service would
    /// give its work more (the store's default is 10 seconds).
    static let deadline: Duration = .seconds(1)

    /// Carries the shutdown out; returns what the store's shutdown did.
    @discardableResult
    static func run(_ store: Store<DemoState, DemoDependencies>, signalName: String) async -> ShutdownReport {
        DemoLog.info("received \(signalName): shutting down, giving the work in flight \(deadline.formatted(.units(allowed: [.seconds]))) to finish")
        store.dependencies.heartbeat.stop()
        store.dependencies.bridge.cancelAll()
        DemoLog.info("timers and signal subscriptions cancelled")
        return await store.shutdown(.finishWork, deadline: deadline)
    }
}
