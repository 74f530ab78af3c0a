import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Increments, then (as its follow-up) records the states around its own update and dispatches a second increment.
private struct IncrementAndFollow: FollowUpStateUpdater {
    let recorder: LockedList<(Int, Int)>

    func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? CounterState else { return currentState }
        state.counter += 1
        return state
    }

    func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext) {
        guard let previous = previousState as? CounterState, let current = currentState as? CounterState else { return }
        recorder.append((previous.counter, current.counter))
        context.dispatch(Increment(amount: 100))
    }
}

@Suite struct FollowUpStateUpdaterTests {
    @Test func followUp_runsOnceWithTheStatesAroundItsOwnUpdate() async throws {
        let store = makeStore(initial: CounterState(counter: 10))
        let recorder = LockedList<(Int, Int)>()
        try await store.dispatch(IncrementAndFollow(recorder: recorder)).settled()
        // Later updates do not change what the follow-up saw.
        try await store.dispatch(Increment(amount: 5)).settled()
        try await store.waitUntil("the follow-up's increment") { store.state.counter == 116 }
        let seen = recorder.all
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 10)
        #expect(seen.first?.1 == 11)
    }

    @Test func followUp_doesNotRunWhenTheUpdateFails() async throws {
        let store = Store<OtherState, TestDependencies>(
            interceptors: [], stateInitializer: { OtherState() }, configuration: .init(listenersAsyncProvider: DispatchQueue(label: "l"))
        )
        let recorder = LockedList<(Int, Int)>()
        // Returns a CounterState to a store of OtherState: the update is rejected.
        struct FailingFollowUp: FollowUpStateUpdater {
            let recorder: LockedList<(Int, Int)>
            func updatedState(currentState: any State) -> any State { CounterState() }
            func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext) {
                recorder.append((0, 0))
            }
        }
        await #expect(throws: KatanaError.self) {
            try await store.dispatch(FailingFollowUp(recorder: recorder)).settled()
        }
        // A wrongly scheduled follow-up would be work of the store's: once it is idle, it has run.
        try await store.dispatch(SetText(text: "after")).settled()
        try await store.waitUntilIdle()
        #expect(recorder.all.isEmpty)
        #expect(store.state.text == "after")
    }
}
