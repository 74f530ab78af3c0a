import Katana

/// The scripted tour plays a user typing into a search box: one search per keystroke burst, each
/// started before the previous one answered. The earlier searches are cancelled by the newer ones,
/// and their promises say so.
struct TypeSearchQueries: AsyncSideEffect {
    let queries: [String]
    /// The time between two searches: shorter than a lookup, so each one is still in flight.
    var pause: Duration = .milliseconds(40)

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) async throws {
        DemoLog.info("tour: typing \(queries.map { "'\($0)'" }.joined(separator: ", ")) into the search box, \(pause.formatted(.units(allowed: [.milliseconds]))) apart")
        var searches: [(query: String, promise: Promise<Void>)] = []
        for (index, query) in queries.enumerated() {
            if index > 0 {
                try await Task.sleep(for: pause)
            }
            searches.append((query, context.dispatch(Search(query: query))))
        }
        for search in searches {
            do {
                try await search.promise.value
            } catch KatanaError.cancelled {
                DemoLog.info("search '\(search.query)' cancelled: a newer search replaced it")
            } catch KatanaError.cancelledByShutdown {
                DemoLog.info("search '\(search.query)' cancelled by the shutdown")
            }
        }
    }
}
