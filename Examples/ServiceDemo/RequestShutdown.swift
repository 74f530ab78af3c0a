import Katana

/// Hands a SIGTERM or SIGINT to `main`, which shuts the store down: the shutdown is carried out from
/// outside the store's own work (a side effect that awaited it would itself be work the shutdown
/// waits for).
struct RequestShutdown: SideEffect {
    let signalName: String

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) throws {
        context.dependencies.requestShutdown(signalName: signalName)
    }
}
