import Katana

/// Starts the heartbeat timer when the first configuration arrives, and re-creates it when a
/// reload changes the interval.
struct ScheduleHeartbeat: SideEffect {
    /// The interval before the change; nil for the first configuration.
    let oldMilliseconds: Int?
    let newMilliseconds: Int

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) throws {
        do {
            let recreated = try context.dependencies.heartbeat.schedule(every: .milliseconds(newMilliseconds))
            if recreated, let oldMilliseconds {
                DemoLog.info("heartbeat changed: every \(oldMilliseconds) ms -> every \(newMilliseconds) ms (timer re-created)")
            }
        } catch {
            DemoLog.error("cannot schedule the heartbeat every \(newMilliseconds) ms: \(error)")
            throw error
        }
    }
}
