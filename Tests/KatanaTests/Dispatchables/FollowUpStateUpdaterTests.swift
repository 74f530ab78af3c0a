import Foundation
import Testing
@testable import Katana

/// Increments, then (as its follow-up) records the states around its own update and dispatches a second increment.
private struct IncrementAndFollow: FollowUpStateUpdater {
    let recorder: Recorder<(Int, Int)>

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
    @Test func followUp_runsOnceWithTheStatesAroundItsOwnUpdate() throws {
        let store = makeStore(initial: CounterState(counter: 10))
        let recorder = Recorder<(Int, Int)>()
        try store.dispatch(IncrementAndFollow(recorder: recorder)).wait(timeout: .seconds(10))
        // Later updates do not change what the follow-up saw.
        try store.dispatch(Increment(amount: 5)).wait(timeout: .seconds(10))
        #expect(eventually { store.state.counter == 116 })
        let seen = recorder.values
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 10)
        #expect(seen.first?.1 == 11)
    }

    @Test func followUp_doesNotRunWhenTheUpdateFails() throws {
        let store = Store<OtherState, TestDependencies>(
            interceptors: [], stateInitializer: { OtherState() }, configuration: .init(listenersAsyncProvider: DispatchQueue(label: "l"))
        )
        let recorder = Recorder<(Int, Int)>()
        // Returns a CounterState to a store of OtherState: the update is rejected.
        struct FailingFollowUp: FollowUpStateUpdater {
            let recorder: Recorder<(Int, Int)>
            func updatedState(currentState: any State) -> any State { CounterState() }
            func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext) {
                recorder.append((0, 0))
            }
        }
        #expect(throws: KatanaError.self) {
            try store.dispatch(FailingFollowUp(recorder: recorder)).wait(timeout: .seconds(10))
        }
        // Give a wrongly scheduled follow-up the chance to show up before checking it did not.
        try store.dispatch(SetText(text: "after")).wait(timeout: .seconds(10))
        usleep(50_000)
        #expect(recorder.values.isEmpty)
        #expect(store.state.text == "after")
    }
}
