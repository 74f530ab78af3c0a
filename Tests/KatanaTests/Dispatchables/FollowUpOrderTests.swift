import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Records "update 1" when applied and "follow-up 1" in its follow-up.
private struct UpdateWithFollowUp: FollowUpStateUpdater {
    let events: LockedList<String>

    func updatedState(currentState: any State) -> any State {
        events.append("update 1")
        return currentState
    }

    func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext) {
        events.append("follow-up 1")
    }
}

/// A `FollowUpStateUpdater`'s follow-up runs right after its own update, before the next item.
@Suite struct FollowUpOrderTests {
    @Test func followUp_runsBeforeTheNextDispatchedUpdater_in20Repetitions() async throws {
        let expected = ["update 1", "follow-up 1", "update 2"]
        var wrongOrders: [[String]] = []
        for _ in 1...20 {
            let store = makeStore()
            let events = LockedList<String>()
            store.dispatch(UpdateWithFollowUp(events: events))
            try await store.dispatch(RecordApplied(label: "update 2", events: events)).settled()
            // Let a late follow-up show up, so a wrong order is reported as such rather than as a
            // missing event: it would be work of the store's, done once the store is idle.
            try await store.waitUntilIdle()
            if events.all != expected {
                wrongOrders.append(events.all)
            }
        }
        #expect(wrongOrders == [])
    }
}
