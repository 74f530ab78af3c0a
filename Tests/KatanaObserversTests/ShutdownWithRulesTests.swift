import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// A store shutting down with observer rules: the reactions of rules triggered before the shutdown
/// are work the shutdown lets finish.
@Suite struct ShutdownWithRulesTests {
    /// A rule whose reaction (on the observer's own queue) waits until `release` is signalled.
    private func slowRule(_ release: DispatchSemaphore) -> StoreInterceptor {
        ObserverInterceptor.observe {
            OnChange(of: \ObsState.count) { _, _ in
                _ = release.wait(timeout: .now() + 300)
                return Append("reacted")
            }
        }
    }

    /// Suspends until the store's shutdown has begun: nothing signals that (the store's work is
    /// held by the slow rule meanwhile), so the flag is looked at until it is set.
    private func waitUntilShuttingDown(_ store: ObsStore) async throws {
        try await poll("the shutdown to begin") { store.isShuttingDown }
    }

    @Test func finishingWork_waitsForASlowRulesReaction_andHandlesWhatItDispatches() async throws {
        let release = DispatchSemaphore(value: 0)
        let store = makeStore([slowRule(release)])
        try await store.dispatch(Bump()).value
        let shutdown = Task { await store.shutdown(.finishWork, deadline: .seconds(600)) }
        try await waitUntilShuttingDown(store)
        release.signal()
        let report = await shutdown.value
        #expect(store.state.log == ["reacted"])
        #expect(report.handled == 1)
        #expect(report.cancelled == 0)
    }

    @Test func cancellingWork_refusesWhatTheReactionDispatches_butWaitsForTheReactionToEnd() async throws {
        let release = DispatchSemaphore(value: 0)
        let store = makeStore([slowRule(release)])
        try await store.dispatch(Bump()).value
        let shutdown = Task { await store.shutdown(.cancelWork, deadline: .seconds(600), gracePeriod: .seconds(600)) }
        try await waitUntilShuttingDown(store)
        release.signal()
        let report = await shutdown.value
        // The reaction's item is refused: the store takes nothing once it cancels.
        #expect(store.state.log == [])
        #expect(report.stillRunning == 0)
        #expect(store.workSnapshot.isIdle)
    }
}
