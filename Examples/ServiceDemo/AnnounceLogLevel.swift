import Katana

/// Logs a change of the configured log level.
struct AnnounceLogLevel: SideEffect {
    let old: String?
    let new: String?

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) throws {
        DemoLog.write("log level changed: \(old ?? "none") -> \(new ?? "none")")
    }
}
