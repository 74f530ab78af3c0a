import Katana

// What the logging and the metrics tests share: a counter store, items of each outcome, and the
// interceptors that block and reject them.

/// The state the bridges' test stores keep.
public struct Counter: State {
    public var value = 0
    public init() {}
}

public typealias CounterStore = Store<Counter, EmptySideEffectDependencyContainer>
public typealias CounterContext = SideEffectContext<Counter, EmptySideEffectDependencyContainer>

/// Adds one.
public struct Bump: StateUpdater {
    public init() {}
    public func updateState(_ state: inout Counter) { state.value += 1 }
}

/// An updater that ``DropDropped`` blocks.
public struct Dropped: StateUpdater {
    public init() {}
    public func updateState(_ state: inout Counter) { state.value += 100 }
}

/// An updater that ``RefuseRefused`` rejects.
public struct Refused: StateUpdater {
    public init() {}
    public func updateState(_ state: inout Counter) { state.value += 1_000 }
}

/// What ``RefuseRefused`` throws.
public struct Refusal: Error, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "refused by the test" }
}

/// Blocks every ``Dropped``: does not pass it on.
public struct DropDropped: Interceptor {
    public init() {}
    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if item is Dropped { return }
        try next(item)
    }
}

/// Rejects every ``Refused``: throws ``Refusal`` instead of passing it on.
public struct RefuseRefused: Interceptor {
    public init() {}
    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if item is Refused { throw Refusal() }
        try next(item)
    }
}
