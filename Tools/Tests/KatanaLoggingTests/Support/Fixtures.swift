import BridgeTestSupport
import Katana
import KatanaTestSupport

/// A side effect that dispatches a ``Bump`` and waits for it (inside the store: the default test
/// bound, as for any wait).
struct Forward: SideEffect {
    func sideEffect(_ context: CounterContext) throws {
        try context.dispatch(Bump()).wait(timeout: defaultTestTimeout)
    }
}

/// A side effect that dispatches a ``Bump`` through a context labelled "nightly job".
struct ForwardLabelled: SideEffect {
    func sideEffect(_ context: CounterContext) throws {
        try context.labelled("nightly job").dispatch(Bump()).wait(timeout: defaultTestTimeout)
    }
}

/// An async side effect that dispatches a ``Bump``.
struct ForwardLater: AsyncSideEffect {
    func sideEffect(_ context: CounterContext) async throws {
        try await context.dispatch(Bump()).value
    }
}

