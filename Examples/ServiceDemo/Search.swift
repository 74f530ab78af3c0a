import Katana

/// Looks a query up in the catalogue, slowly, as a remote search would. "Latest wins": starting a
/// search cancels the one still in flight, so only the newest query's result lands in the state.
struct Search: AsyncSideEffect {
    /// What the service can find: the names of the store's building blocks.
    static let catalogue = [
        "AsyncSideEffect", "Interceptor", "Promise", "ShutdownReport", "SideEffect", "SideEffectID",
        "StateUpdater", "Store",
    ]

    /// How long a lookup takes, standing in for a round trip to a search back end.
    static let lookupTime: Duration = .milliseconds(150)

    let query: String

    var cancellationID: SideEffectID? { "search" }
    var cancelsInFlight: Bool { true }

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) async throws {
        DemoLog.debug("search '\(query)' started")
        // Cancelled (by a newer search, or by the shutdown's deadline), the sleep throws and the
        // result is never stored.
        try await Task.sleep(for: Self.lookupTime)
        try Task.checkCancellation()
        let matches = Self.catalogue.filter { $0.localizedCaseInsensitiveContains(query) }
        try await context.dispatch(SetSearchResult(result: SearchResult(query: query, matches: matches))).value
        DemoLog.info("search '\(query)' found \(matches.count): \(matches.joined(separator: ", "))")
    }
}
