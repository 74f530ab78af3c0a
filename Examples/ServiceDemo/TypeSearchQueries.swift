import Katana

/// The scripted tour plays a user typing into a search box: one search per keystroke burst, each
/// started before the previous one answered. The earlier searches are cancelled by the newer ones,
/// and their promises say so (`KatanaError.cancelled`).
struct TypeSearchQueries: AsyncSideEffect {
    let queries: [String]
    /// The time between two searches: shorter than a lookup, so each one is still in flight.
    var pause: Duration = .milliseconds(40)

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) async throws {
        DemoLog.info("tour: typing \(queries.map { "'\($0)'" }.joined(separator: ", ")) into the search box, \(pause.formatted(.units(allowed: [.milliseconds]))) apart")
        // Each search's outcome is reported as soon as it settles, by a child task: the tour's
        // work ends (and a shutdown stops waiting for it) only once every search has settled.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, query) in queries.enumerated() {
                if index > 0 {
                    try await Task.sleep(for: pause)
                }
                let search = context.dispatch(Search(query: query))
                group.addTask { await Self.report(search, for: query) }
            }
            try await group.waitForAll()
        }
    }

    /// Logs how a search ended when it was cancelled (a search that finishes logs its result itself).
    private static func report(_ search: Promise<Void>, for query: String) async {
        do {
            try await search.value
        } catch KatanaError.cancelled {
            DemoLog.info("search '\(query)' cancelled: a newer search replaced it")
        } catch KatanaError.cancelledByShutdown {
            DemoLog.info("search '\(query)' cancelled by the shutdown")
        } catch {
            DemoLog.warning("search '\(query)' failed: \(error)")
        }
    }
}
