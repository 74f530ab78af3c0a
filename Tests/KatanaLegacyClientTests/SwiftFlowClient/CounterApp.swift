// A small counter app written the way a Swift Flow client was: a subscriber object with
// `newState(state:)`, action creators and async action creators, `store.dispatch(...)` with callbacks.
// Edits from Swift Flow: the ones Migration.md lists (Swift Flow's reducers are Katana actions'
// `updatedState(currentState:)`, and the store is a `Store<State, Dependencies>`).
import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport

struct FlowCounterState: State {
    var counter = 0
    var message = ""
}

struct IncreaseCounter: Action {
    func updatedState(currentState: State) -> State {
        guard var state = currentState as? FlowCounterState else { return currentState }
        state.counter += 1
        return state
    }
}

struct SetCounter: Action {
    let value: Int

    func updatedState(currentState: State) -> State {
        guard var state = currentState as? FlowCounterState else { return currentState }
        state.counter = value
        return state
    }
}

struct SetMessage: Action {
    let message: String

    func updatedState(currentState: State) -> State {
        guard var state = currentState as? FlowCounterState else { return currentState }
        state.message = message
        return state
    }
}

/// Increases the counter only while it is below `limit`.
func increaseCounter(below limit: Int) -> ActionCreator {
    return { state, store in
        let state = state as! FlowCounterState
        if state.counter < limit {
            return IncreaseCounter()
        } else {
            return nil
        }
    }
}

/// Resets the counter, after dispatching a message through the store it is given.
func resetCounter(message: String) -> ActionCreator {
    return { state, store in
        store.dispatch(SetMessage(message: message))
        return SetCounter(value: 0)
    }
}

/// Fetches the counter "from the server" and sets it when the answer arrives.
func fetchCounter(from server: CounterServer) -> AsyncActionCreator {
    return { state, store, actionCreatorCallback in
        server.fetch { value in
            actionCreatorCallback { state, store in
                return SetCounter(value: value)
            }
        }
    }
}

/// A fake server whose answers the test releases (each answer waits for it as long as a test may
/// last: it must not answer by itself while the test still looks at the state before it).
class CounterServer {
    let value: Int
    let answer = DispatchSemaphore(value: 0)

    init(value: Int) {
        self.value = value
    }

    func fetch(completion: @escaping (Int) -> Void) {
        let value = self.value
        let answer = self.answer
        DispatchQueue.global().async {
            _ = answer.wait(timeout: .now() + 600)
            completion(value)
        }
    }
}

/// The Swift Flow view controller: subscribes when it appears, renders every state (the counters
/// it rendered are kept in a list a test can await).
class CounterViewController: StoreSubscriber {
    let store: Store<FlowCounterState, EmptySideEffectDependencyContainer>
    let rendered = LockedList<Int>()

    init(store: Store<FlowCounterState, EmptySideEffectDependencyContainer>) {
        self.store = store
    }

    func viewWillAppear() {
        store.subscribe(self)
    }

    func viewWillDisappear() {
        store.unsubscribe(self)
    }

    func newState(state: FlowCounterState) {
        rendered.append(state.counter)
    }

    var renderedCounters: [Int] {
        rendered.all
    }
}

/// The app's store (Swift Flow's `MainStore(reducer:appState:)`), listeners on a queue of its own.
func makeCounterStore() -> Store<FlowCounterState, EmptySideEffectDependencyContainer> {
    return Store<FlowCounterState, EmptySideEffectDependencyContainer>(
        interceptors: [],
        stateInitializer: { FlowCounterState() },
        configuration: .init(listenersAsyncProvider: DispatchQueue(label: "counter.app.listeners"))
    )
}
