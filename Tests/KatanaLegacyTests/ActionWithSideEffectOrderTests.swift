import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// Records "update 1" when applied and "side effect 1" in its side effect.
@available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
private struct FirstActionWithSideEffect: ActionWithSideEffect, LegacyStateAction {
    let events: LockedList<String>

    func update(_ state: inout LegacyState) {
        events.append("update 1")
    }

    func sideEffect(
        currentState: State,
        previousState: State,
        dispatch: @escaping StoreDispatch,
        dependencies: SideEffectDependencyContainer
    ) {
        events.append("side effect 1")
    }
}

/// Records "update 2" when applied.
@available(*, deprecated, message: "Exercises the deprecated Action")
private struct SecondAction: LegacyStateAction {
    let events: LockedList<String>

    func update(_ state: inout LegacyState) {
        events.append("update 2")
    }
}

/// Katana 3.2.0's `testDispatchQueueAction`: an `ActionWithSideEffect`'s side effect runs right after
/// its update, before the next action dispatched after it.
@Suite struct ActionWithSideEffectOrderTests {
    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_runsBeforeTheNextDispatchedAction_in20Repetitions() async throws {
        let expected = ["update 1", "side effect 1", "update 2"]
        var wrongOrders: [[String]] = []
        for _ in 1...20 {
            let store = makeStore()
            let events = LockedList<String>()
            store.dispatch(FirstActionWithSideEffect(events: events))
            try await store.dispatch(SecondAction(events: events)).settled()
            // Let a late side effect show up, so a wrong order is reported as such rather than as a missing event.
            _ = try? await events.waitForCount(3)
            if events.all != expected {
                wrongOrders.append(events.all)
            }
        }
        #expect(wrongOrders == [])
    }
}
