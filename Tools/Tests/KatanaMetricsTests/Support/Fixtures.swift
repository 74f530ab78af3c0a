import Dispatch
import Foundation
import BridgeTestSupport
import Katana
import KatanaTestSupport

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

/// An async side effect that sleeps a little, then dispatches a ``Bump`` (or fails).
struct AsyncNap: AsyncSideEffect {
    /// Throws ``Refusal`` after its sleep, instead of dispatching.
    var fails = false
    func sideEffect(_ context: CounterContext) async throws {
        try await Task.sleep(for: .milliseconds(20))
        if fails { throw Refusal() }
        try await context.dispatch(Bump()).value
    }
}

/// A synchronous side effect that says it has started (a line in `started`, which wakes the
/// test's wait), then waits until the test releases it.
struct Parked: SideEffect {
    let started: LockedList<String>
    let release: DispatchSemaphore

    func sideEffect(_ context: CounterContext) throws {
        started.append("Parked")
        guard release.wait(timeout: holdDeadline()) == .success else { throw Timeout() }
    }
}

/// Thrown by a fixture that waited for the test too long.
struct Timeout: Error {}

/// Holds every ``Held`` (on the store's queue, where an updater's interceptors run): says it has
/// it (a line in `holding`, which wakes the test's wait), then waits until the test opens the
/// gate, so that items dispatched meanwhile wait.
struct Gate: Interceptor {
    let holding: LockedList<String>
    let open: DispatchSemaphore

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if item is Held {
            holding.append("Held")
            guard open.wait(timeout: holdDeadline()) == .success else { throw Timeout() }
        }
        try next(item)
    }
}

/// When a fixture that holds one of the store's threads lets go at the latest: the test lets it go
/// first, whatever happens (a `defer`), so the bound only keeps a failed test from holding the
/// store for good; it is the default test bound, so that a busy machine does not end a hold early.
func holdDeadline() -> DispatchTime {
    .now() + .seconds(Int(defaultTestTimeout.components.seconds))
}

/// The fully qualified name of `type`, as the `type` dimension writes it.
func name(_ type: Any.Type) -> String {
    String(reflecting: type)
}
