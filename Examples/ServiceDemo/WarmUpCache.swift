import Katana

/// Fills a cache in the background, for an hour: stands in for the long work a real service starts
/// and should not wait for when it is asked to stop. The shutdown gives it until its deadline, then
/// cancels it (the summary counts it as cancelled).
struct WarmUpCache: AsyncSideEffect {
    static let duration: Duration = .seconds(3600)

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) async throws {
        DemoLog.info("warm-up: filling the cache in the background (takes an hour)")
        do {
            try await Task.sleep(for: Self.duration)
        } catch {
            DemoLog.info("warm-up cancelled")
            throw error
        }
        DemoLog.info("warm-up finished")
    }
}
