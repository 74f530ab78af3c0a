import Katana

/// The state the logging tests' stores keep.
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

/// What ``RefuseRefused`` throws.
struct Refusal: Error, Equatable, CustomStringConvertible {
    var description: String { "refused by the test" }
}

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
