import Dispatch
import Foundation
import BridgeTestSupport
import Katana

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
