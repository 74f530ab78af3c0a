import BridgeTestSupport
import Katana

/// A side effect that dispatches a ``Bump`` and waits for it.
struct Forward: SideEffect {
    func sideEffect(_ context: CounterContext) throws {
        try context.dispatch(Bump()).wait(timeout: .seconds(10))
    }
}

/// A side effect that dispatches a ``Bump`` through a context labelled "nightly job".
struct ForwardLabelled: SideEffect {
    func sideEffect(_ context: CounterContext) throws {
        try context.labelled("nightly job").dispatch(Bump()).wait(timeout: .seconds(10))
    }
}

/// An async side effect that dispatches a ``Bump``.
struct ForwardLater: AsyncSideEffect {
    func sideEffect(_ context: CounterContext) async throws {
        try await context.dispatch(Bump()).value
    }
}

