import Katana
import KatanaLegacy
import Testing

/// Records "update 1" when applied and "side effect 1" in its side effect.
@available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
private struct FirstActionWithSideEffect: ActionWithSideEffect, LegacyStateAction {
    let events: Recorder<String>

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
    let events: Recorder<String>

    func update(_ state: inout LegacyState) {
        events.append("update 2")
    }
}

/// Katana 3.2.0's `testDispatchQueueAction`: an `ActionWithSideEffect`'s side effect runs right after
/// its update, before the next action dispatched after it.
@Suite struct ActionWithSideEffectOrderTests {
    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_runsBeforeTheNextDispatchedAction_in20Repetitions() throws {
        let expected = ["update 1", "side effect 1", "update 2"]
        var wrongOrders: [[String]] = []
        for _ in 1...20 {
            let store = makeStore()
            let events = Recorder<String>()
            store.dispatch(FirstActionWithSideEffect(events: events))
            try store.dispatch(SecondAction(events: events)).wait(timeout: .seconds(5))
            // Let a late side effect show up, so a wrong order is reported as such rather than as a missing event.
            _ = eventually(timeout: .milliseconds(500)) { events.values.count >= 3 }
            if events.values != expected {
                wrongOrders.append(events.values)
            }
        }
        #expect(wrongOrders == [])
    }
}
