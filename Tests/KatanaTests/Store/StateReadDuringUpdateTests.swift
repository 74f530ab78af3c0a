import Foundation
import Testing
@testable import Katana

/// Holds the store for an updater that reads it (the updater is created before it is dispatched).
private final class StoreBox: @unchecked Sendable {
    // @unchecked: set once before any dispatch, then only read.
    var store: TestStore?
}

/// Adds 1, records what `store.state` says in the middle of its own update, then adds 1 again.
private struct ReadsStoreWhileUpdating: StateUpdater {
    let box: StoreBox
    let seen: Recorder<Int>

    func updateState(_ state: inout CounterState) {
        state.counter += 1
        if let store = box.store {
            seen.append(store.state.counter)
        }
        state.counter += 1
    }
}

/// Keeps the getState closure the store gives its dependencies.
private final class ReadingDependencies: SideEffectDependencyContainer {
    let getState: GetState
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        self.getState = getState
    }
}

private struct ReadsDependenciesWhileUpdating: StateUpdater {
    let dependencies: ReadingDependencies
    let seen: Recorder<Int>

    func updateState(_ state: inout CounterState) {
        state.counter = 41
        seen.append((dependencies.getState() as? CounterState)?.counter ?? -1)
        state.counter += 1
    }
}

@Suite struct StateReadDuringUpdateTests {
    @Test func readingStoreStateInsideOwnUpdater_seesTheUpdateSoFar_withoutDeadlockOrCrash() throws {
        let box = StoreBox()
        let store = makeStore(initial: CounterState(counter: 10))
        box.store = store
        let seen = Recorder<Int>()
        try store.dispatch(ReadsStoreWhileUpdating(box: box, seen: seen)).wait(timeout: .seconds(10))
        #expect(seen.values == [11])
        #expect(store.state.counter == 12)
        // The store keeps working afterwards.
        try store.dispatch(Increment(amount: 3)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 15)
    }

    @Test func readingThroughDependenciesGetStateInsideAnUpdater_seesTheUpdateSoFar() throws {
        let store = Store<CounterState, ReadingDependencies>(
            interceptors: [], stateInitializer: { CounterState() }, configuration: .init(listenersAsyncProvider: DispatchQueue(label: "l"))
        )
        let seen = Recorder<Int>()
        try store.dispatch(ReadsDependenciesWhileUpdating(dependencies: store.dependencies, seen: seen)).wait(timeout: .seconds(10))
        #expect(seen.values == [41])
        #expect(store.state.counter == 42)
    }
}
