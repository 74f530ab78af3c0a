/// A type-erased side effect: a piece of logic that talks to the world and may dispatch more items.
///
/// Side effects run concurrently with each other and with state updates. Adopt ``SideEffect``,
/// ``ReturningSideEffect`` or ``AsyncSideEffect`` rather than this protocol directly.
public protocol AnySideEffect: Dispatchable {
    /// Runs the side effect with the store's context and returns its result (`()` when it has none).
    func anySideEffect(_ context: any AnySideEffectContext) throws -> any Sendable
}

/// A side effect tied to one state type and one dependency container.
public protocol SideEffect: AnySideEffect {
    /// The state type of the store this side effect runs in.
    associatedtype StateType: State
    /// The dependency container of the store this side effect runs in.
    associatedtype Dependencies: SideEffectDependencyContainer

    /// Runs the logic; a thrown error rejects the dispatch promise.
    func sideEffect(_ context: SideEffectContext<StateType, Dependencies>) throws
}

extension SideEffect {
    /// Checks that the store's context has this side effect's types, then runs ``sideEffect(_:)``.
    ///
    /// Inlinable and always inlined, so each side effect's conformance compiles it for its own
    /// types (docs/PERFORMANCE.md, "Side effects: no-op SideEffect").
    @inlinable @inline(__always)
    public func anySideEffect(_ context: any AnySideEffectContext) throws -> any Sendable {
        guard let typed = context as? SideEffectContext<StateType, Dependencies> else {
            throw KatanaError.sideEffectContextMismatch(
                sideEffect: typeName(of: self),
                expected: typeName(SideEffectContext<StateType, Dependencies>.self),
                actual: typeName(type(of: context))
            )
        }
        try sideEffect(typed)
        return ()
    }
}

/// A side effect that produces a value, which the dispatch promise is fulfilled with.
///
/// Its context is type-erased so libraries can write returning side effects that work with any
/// store; cast it to `SideEffectContext<AppState, AppDependencies>` to get typed access.
public protocol ReturningSideEffect: AnySideEffect {
    /// The value the side effect produces.
    associatedtype ReturnValue: Sendable

    /// Runs the logic and returns its value; a thrown error rejects the dispatch promise.
    func sideEffect(_ context: any AnySideEffectContext) throws -> ReturnValue
}

extension ReturningSideEffect {
    /// Runs ``sideEffect(_:)`` and erases its value.
    public func anySideEffect(_ context: any AnySideEffectContext) throws -> any Sendable {
        try sideEffect(context)
    }
}

/// A side effect written with async/await; it runs as a Swift task and never blocks a thread
/// while it awaits.
public protocol AsyncSideEffect: AnySideEffect {
    /// The state type of the store this side effect runs in.
    associatedtype StateType: State
    /// The dependency container of the store this side effect runs in.
    associatedtype Dependencies: SideEffectDependencyContainer
    /// The value the side effect produces (`Void` when it produces none).
    associatedtype ReturnValue: Sendable = Void

    /// Runs the logic and returns its value; a thrown error rejects the dispatch promise.
    func sideEffect(_ context: SideEffectContext<StateType, Dependencies>) async throws -> ReturnValue

    /// A name shared by side effects that are cancelled together: `store.cancelSideEffects(id:)`
    /// cancels every running one that has it. nil (the default) for none.
    var cancellationID: SideEffectID? { get }

    /// Whether starting this side effect cancels the running ones with the same ``cancellationID``
    /// ("latest wins", for searches and refreshes); false by default.
    var cancelsInFlight: Bool { get }

    /// Runs the side effect with the store's type-erased context: what the store calls. Provided;
    /// a side effect only implements ``sideEffect(_:)``.
    func anyAsyncSideEffect(_ context: any AnySideEffectContext) async throws -> any Sendable
}

extension AsyncSideEffect {
    /// No id: the side effect is cancelled only through its promise, or by a shutdown.
    public var cancellationID: SideEffectID? { nil }

    /// A new side effect does not cancel those in flight unless it says so.
    public var cancelsInFlight: Bool { false }

    /// Always throws: an async side effect must be awaited, and the store does that itself.
    ///
    /// Only code that calls `anySideEffect` by hand (outside a store) reaches this.
    public func anySideEffect(_ context: any AnySideEffectContext) throws -> any Sendable {
        throw KatanaError.asyncSideEffectCalledSynchronously(sideEffect: typeName(of: self))
    }

    /// Checks that the store's context has this side effect's types, then awaits ``sideEffect(_:)``.
    ///
    /// Inlinable and always inlined, so each side effect's conformance compiles it for its own
    /// types (docs/PERFORMANCE.md, "Side effects: no-op AsyncSideEffect").
    @inlinable @inline(__always)
    public func anyAsyncSideEffect(_ context: any AnySideEffectContext) async throws -> any Sendable {
        guard let typed = context as? SideEffectContext<StateType, Dependencies> else {
            throw KatanaError.sideEffectContextMismatch(
                sideEffect: typeName(of: self),
                expected: typeName(SideEffectContext<StateType, Dependencies>.self),
                actual: typeName(type(of: context))
            )
        }
        return try await sideEffect(typed)
    }
}
