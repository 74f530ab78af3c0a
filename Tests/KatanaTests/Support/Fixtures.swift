import Dispatch
import Foundation
@testable import Katana

/// The state most tests use: a counter and a log of applied values, in order.
struct CounterState: State, Equatable {
    var counter = 0
    var applied: [Int] = []
}

/// Another state type, to provoke type mismatches.
struct OtherState: State, Equatable {
    var text = ""
}

final class TestDependencies: SideEffectDependencyContainer {
    let label: String
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        label = "test dependencies"
    }
}

typealias TestStore = Store<CounterState, TestDependencies>

/// Adds `amount` to the counter and records it.
struct Increment: StateUpdater {
    var amount = 1
    func updateState(_ state: inout CounterState) {
        state.counter += amount
        state.applied.append(amount)
    }
}

/// An updater for another state type.
struct SetText: StateUpdater {
    let text: String
    func updateState(_ state: inout OtherState) {
        state.text = text
    }
}

/// A type-erased updater that returns a state of the wrong type.
struct ReturnsWrongState: AnyStateUpdater {
    func updatedState(currentState: any State) -> any State {
        OtherState(text: "wrong")
    }
}

/// A type-erased updater that behaves.
struct ErasedDouble: AnyStateUpdater {
    func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? CounterState else { return currentState }
        state.counter *= 2
        return state
    }
}

struct NotHandleable: Dispatchable {}

struct BothKinds: AnyStateUpdater, AnySideEffect {
    func updatedState(currentState: any State) -> any State { currentState }
    func anySideEffect(_ context: any AnySideEffectContext) throws -> any Sendable { () }
}

struct TestError: Error, Equatable {
    let code: Int
}

/// A side effect that dispatches `Increment(amount:)` and waits for it.
struct IncrementLater: SideEffect {
    let amount: Int
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        try context.dispatch(Increment(amount: amount)).wait(timeout: .seconds(10))
    }
}

struct Fails: SideEffect {
    let code: Int
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        throw TestError(code: code)
    }
}

/// A side effect for another store type.
struct WrongContextSideEffect: SideEffect {
    func sideEffect(_ context: SideEffectContext<OtherState, EmptySideEffectDependencyContainer>) throws {}
}

struct ReadCounter: ReturningSideEffect {
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        guard let context = context as? SideEffectContext<CounterState, TestDependencies> else {
            throw TestError(code: -1)
        }
        return context.getState().counter
    }
}

struct AsyncAdd: AsyncSideEffect {
    let amount: Int
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws -> Int {
        try await context.dispatch(Increment(amount: amount)).value
        return context.getState().counter
    }
}

/// A thread-safe recorder for values produced on other threads.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// A listener queue every test can drain on Linux and macOS alike (the Apple default is the main queue).
func testConfiguration(
    listeners: any Executor = DispatchQueue(label: "test.listeners"),
    stateInitializer: any Executor = ImmediateExecutor(),
    signpostLogger: SignpostLogger? = nil
) -> TestStore.Configuration {
    .init(stateInitializerAsyncProvider: stateInitializer, listenersAsyncProvider: listeners, signpostLogger: signpostLogger)
}

func makeStore(
    interceptors: [StoreInterceptor] = [],
    initial: CounterState = CounterState(),
    configuration: TestStore.Configuration = testConfiguration()
) -> TestStore {
    TestStore(interceptors: interceptors, stateInitializer: { initial }, configuration: configuration)
}

extension Error {
    var katana: KatanaError? { self as? KatanaError }
}
