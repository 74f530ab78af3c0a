import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// The state the legacy tests use: a counter, a log of applied items in order, and a download.
struct LegacyState: State, Equatable {
    var counter = 0
    var log: [String] = []
    var download = Download()

    struct Download: Equatable {
        var status = "idle"
        var progress: Double = 0
        var items: [String] = []
        var error: String?
    }
}

/// A state of another type, to provoke mismatches.
struct ForeignState: State, Equatable {
    var text = ""
}

/// A fake backend the dependency container hands to side effects.
struct FakeBackend: Sendable {
    let items: [String]
}

/// A dependency container written the 2.x way: its initialiser takes the 2.x `StoreDispatch`.
@available(*, deprecated, message: "A Katana 2.x dependency container, on purpose")
final class LegacyDependencies: LegacySideEffectDependencyContainer {
    let backend = FakeBackend(items: ["alpha", "beta"])
    let dispatch: StoreDispatch
    let getState: GetState

    init(dispatch: @escaping StoreDispatch, getState: @escaping GetState) {
        self.dispatch = dispatch
        self.getState = getState
    }
}

@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
typealias LegacyStore = Store<LegacyState, LegacyDependencies>

/// A modern store for the legacy tests, with listeners on a private serial queue (the same on every platform).
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
func makeStore(
    interceptors: [StoreInterceptor] = [],
    initial: LegacyState = LegacyState()
) -> LegacyStore {
    LegacyStore(
        interceptors: interceptors,
        stateInitializer: { initial },
        configuration: .init(listenersAsyncProvider: DispatchQueue(label: "legacy.tests.listeners"))
    )
}

/// The configuration legacy-initialised stores use in the tests.
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
func testConfiguration() -> LegacyStore.Configuration {
    .init(listenersAsyncProvider: DispatchQueue(label: "legacy.tests.listeners"))
}

/// Helper for test actions: mutate the typed state in place; any other state passes through unchanged.
@available(*, deprecated, message: "A Katana 2.x action, on purpose")
protocol LegacyStateAction: Action {
    func update(_ state: inout LegacyState)
}

@available(*, deprecated, message: "A Katana 2.x action, on purpose")
extension LegacyStateAction {
    func updatedState(currentState: State) -> State {
        guard var state = currentState as? LegacyState else { return currentState }
        update(&state)
        return state
    }
}

/// A 2.x action that appends its tag to the log.
@available(*, deprecated, message: "A Katana 2.x action, on purpose")
struct AppendAction: LegacyStateAction {
    let tag: String
    func update(_ state: inout LegacyState) {
        state.log.append(tag)
    }
}

/// A 2.x action that adds to the counter.
@available(*, deprecated, message: "A Katana 2.x action, on purpose")
struct AddAction: LegacyStateAction {
    var amount = 1
    func update(_ state: inout LegacyState) {
        state.counter += amount
    }
}

/// A modern updater that appends its tag to the log.
struct AppendUpdater: StateUpdater {
    let tag: String
    func updateState(_ state: inout LegacyState) {
        state.log.append(tag)
    }
}

/// A 2.x action that returns a state of the wrong type.
@available(*, deprecated, message: "A Katana 2.x action, on purpose")
struct WrongStateAction: Action {
    func updatedState(currentState: State) -> State {
        ForeignState(text: "wrong")
    }
}

struct TestError: Error, Equatable {
    let code: Int
}

/// An `AddAction` dispatched to `store` is rejected with `error` and leaves the counter alone; the
/// store keeps working: an `AppendAction` after it is applied.
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
func expectAddRejected(with error: TestError, by store: LegacyStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    await #expect(throws: error, sourceLocation: sourceLocation) {
        try await store.dispatch(AddAction(amount: 1)).settled()
    }
    #expect(store.state.counter == 0, sourceLocation: sourceLocation)
    try await store.dispatch(AppendAction(tag: "fine")).settled()
    #expect(store.state.log == ["fine"], sourceLocation: sourceLocation)
}

/// A modern updater that changes nothing: waiting for it means every earlier item has been handled.
struct Barrier: StateUpdater {
    func updateState(_ state: inout LegacyState) {}
}

/// Dispatches a ``Barrier`` and waits for it (bounded).
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
func settle(_ store: LegacyStore) async throws {
    try await store.dispatch(Barrier()).settled()
}
