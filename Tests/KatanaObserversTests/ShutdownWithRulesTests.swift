import Foundation
import Katana
import KatanaObservers
import Testing

/// A store shutting down with observer rules: the reactions of rules triggered before the shutdown
/// are work the shutdown lets finish.
@Suite struct ShutdownWithRulesTests {
    @Test func finishingWork_waitsForASlowRulesReaction_andHandlesWhatItDispatches() async throws {
        let rules = ObserverInterceptor.observe {
            OnChange(of: \ObsState.count) { _, _ in
                // A slow reaction, on the observer's own queue.
                Thread.sleep(forTimeInterval: 0.05)
                return Append("reacted")
            }
        }
        let store = makeStore([rules])
        try await store.dispatch(Bump()).value
        let report = await store.shutdown(.finishWork, deadline: .seconds(60))
        #expect(store.state.log == ["reacted"])
        #expect(report.handled == 1)
        #expect(report.cancelled == 0)
    }

    @Test func cancellingWork_doesNotWaitForTheDeadline_butStillLetsTheReactionEnd() async throws {
        let rules = ObserverInterceptor.observe {
            OnChange(of: \ObsState.count) { _, _ in
                Thread.sleep(forTimeInterval: 0.05)
                return Append("reacted")
            }
        }
        let store = makeStore([rules])
        try await store.dispatch(Bump()).value
        let report = await store.shutdown(.cancelWork, deadline: .seconds(60), gracePeriod: .seconds(60))
        // The reaction's item is refused: the store takes nothing once it cancels.
        #expect(store.state.log == [])
        #expect(report.stillRunning == 0)
    }
}
