import Dispatch
import Foundation
import Katana

/// The state the metrics tests' stores keep.
struct Counter: State {
    var value = 0
}

typealias CounterStore = Store<Counter, EmptySideEffectDependencyContainer>
typealias CounterContext = SideEffectContext<Counter, EmptySideEffectDependencyContainer>

/// Adds one.
struct Bump: StateUpdater {
    func updateState(_ state: inout Counter) { state.value += 1 }
}

/// An updater that ``DropDropped`` blocks.
struct Dropped: StateUpdater {
    func updateState(_ state: inout Counter) { state.value += 100 }
}

/// An updater that ``RefuseRefused`` rejects.
struct Refused: StateUpdater {
    func updateState(_ state: inout Counter) { state.value += 1_000 }
}

/// An updater that ``Gate`` holds on the store's queue until the test opens it.
struct Held: StateUpdater {
    func updateState(_ state: inout Counter) { state.value += 10 }
}

/// A synchronous side effect whose body takes at least 20 ms.
struct Nap: SideEffect {
    func sideEffect(_ context: CounterContext) throws {
        Thread.sleep(forTimeInterval: 0.020)
    }
}

/// An async side effect that sleeps a little, then dispatches a ``Bump``.
struct AsyncNap: AsyncSideEffect {
    func sideEffect(_ context: CounterContext) async throws {
        try await Task.sleep(for: .milliseconds(20))
        try await context.dispatch(Bump()).value
    }
}

/// A synchronous side effect that says it has started, then waits until the test releases it.
struct Parked: SideEffect {
    let started: DispatchSemaphore
    let release: DispatchSemaphore

    func sideEffect(_ context: CounterContext) throws {
        started.signal()
        guard release.wait(timeout: .now() + 10) == .success else { throw Timeout() }
    }
}

/// Thrown by a fixture that waited for the test too long.
struct Timeout: Error {}

/// What ``RefuseRefused`` throws.
struct Refusal: Error, Equatable {}

/// Blocks every ``Dropped``: does not pass it on.
struct DropDropped: Interceptor {
    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if item is Dropped { return }
        try next(item)
    }
}

/// Rejects every ``Refused``: throws ``Refusal`` instead of passing it on.
struct RefuseRefused: Interceptor {
    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if item is Refused { throw Refusal() }
        try next(item)
    }
}

/// Holds every ``Held`` (on the store's queue, where an updater's interceptors run): says it has
/// it, then waits until the test opens the gate, so that items dispatched meanwhile wait.
struct Gate: Interceptor {
    let holding: DispatchSemaphore
    let open: DispatchSemaphore

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if item is Held {
            holding.signal()
            guard open.wait(timeout: .now() + 10) == .success else { throw Timeout() }
        }
        try next(item)
    }
}

/// The fully qualified name of `type`, as the `type` dimension writes it.
func name(_ type: Any.Type) -> String {
    String(reflecting: type)
}
