import Katana

extension PartialStore {
    /// Suspends until `condition` holds, asking it again each time a part of the store runs out of
    /// work (the store's own activity signal: no polling). For conditions about the store: its
    /// state, what its listeners or interceptors did, its idleness. Throws ``TimedOut`` after
    /// `timeout`, naming `what`.
    public func waitUntil(
        _ what: String = "the store's condition", timeout: Duration = defaultTestTimeout, _ condition: () -> Bool
    ) async throws {
        guard await waitUntilQuiet(until: .now + timeout, condition) else {
            throw TimedOut(waitingFor: what, after: timeout)
        }
    }

    /// Suspends until the store has nothing left to do: no item waiting or being handled, no side
    /// effect running, every listener called.
    public func waitUntilIdle(timeout: Duration = defaultTestTimeout) async throws {
        try await waitUntil("the store to be idle", timeout: timeout) { workSnapshot.isIdle }
    }
}
