import Katana

/// Logs a change of the configured log level (applied by then: see `ServiceDemo.applyLogLevel`),
/// whatever the new level: the operator who changed it sees that it took effect.
struct AnnounceLogLevel: SideEffect {
    let old: LogLevel
    let new: LogLevel

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) throws {
        DemoLog.always("log level changed: \(old) -> \(new)")
    }
}
