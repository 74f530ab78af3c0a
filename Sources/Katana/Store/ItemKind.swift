/// How the store handles items of one dynamic type. Worked out once per type (the protocol casts
/// are the expensive part of handling an item) and cached by the engine.
enum ItemKind {
    /// Applies an updater to the state, given a pointer to the store's state; returns the error
    /// when the update cannot happen.
    typealias StateApplier = (_ item: any Dispatchable, _ state: UnsafeMutableRawPointer) -> KatanaError?

    /// A state updater: how to apply it, and whether it has a follow-up (``FollowUpStateUpdater``).
    case updater(StateApplier, followsUp: Bool)
    /// Runs a side effect of the classified type with the store's context; returns its value.
    typealias SideEffectRunner = @Sendable (_ item: any Dispatchable, _ context: any AnySideEffectContext) throws -> any Sendable
    /// Runs an async side effect of the classified type with the store's context; returns its value.
    typealias AsyncSideEffectRunner = @Sendable (_ item: any Dispatchable, _ context: any AnySideEffectContext) async throws -> any Sendable

    /// A synchronous or returning side effect, and how to run one.
    case sideEffect(SideEffectRunner)
    /// An async side effect, and how to run one.
    case asyncSideEffect(AsyncSideEffectRunner)
    /// Neither an updater nor a side effect.
    case unsupported
    /// Both an updater and a side effect.
    case ambiguous

    /// Classifies `item` for a store whose state type is `S`.
    static func classify<S: State>(_ item: any Dispatchable, storeState: S.Type) -> ItemKind {
        if item is any AnyStateUpdater {
            if item is any AnySideEffect {
                return .ambiguous
            }
            let followsUp = item is any FollowUpStateUpdater
            if let typed = item as? any StateUpdater {
                return .updater(type(of: typed).inPlaceApplier(storeState: S.self), followsUp: followsUp)
            }
            return .updater(erasedApplier(storeState: S.self), followsUp: followsUp)
        }
        // The runners open each item as its concrete type (see `withConcrete`), which is much
        // cheaper than the protocol casts done here once per type.
        if let sideEffect = item as? any AsyncSideEffect {
            return .asyncSideEffect(type(of: sideEffect).asyncRunner)
        }
        if let sideEffect = item as? any AnySideEffect {
            return .sideEffect(type(of: sideEffect).runner)
        }
        return .unsupported
    }

    /// Applies a type-erased updater through `updatedState(currentState:)`, checking what it returns.
    private static func erasedApplier<S: State>(storeState: S.Type) -> StateApplier {
        { item, state in
            guard let updater = item as? any AnyStateUpdater else {
                return .unsupportedDispatchable(item: typeName(of: item))
            }
            let pointer = state.assumingMemoryBound(to: S.self)
            let updated = updater.updatedState(currentState: pointer.pointee)
            guard let updated = updated as? S else {
                return .invalidStateReturned(
                    updater: typeName(of: item), expected: typeName(S.self), actual: typeName(type(of: updated))
                )
            }
            pointer.pointee = updated
            return nil
        }
    }
}

extension StateUpdater {
    /// Mutates the store's state in place when this updater's `StateType` is the store's state
    /// type; otherwise always reports the mismatch.
    ///
    /// Mutating through the pointer (instead of a copy in an existential) keeps the state uniquely
    /// referenced, so a large state is not copied on every update.
    static func inPlaceApplier<S: State>(storeState: S.Type) -> ItemKind.StateApplier {
        guard StateType.self == S.self else {
            let mismatch = KatanaError.stateTypeMismatch(
                updater: typeName(Self.self), expected: typeName(S.self), actual: typeName(StateType.self)
            )
            return { _, _ in mismatch }
        }
        return { item, state in
            // The store's state is an `S`, and `S` is `StateType` (checked above).
            withConcrete(item, as: Self.self) { updater in
                updater.updateState(&state.assumingMemoryBound(to: StateType.self).pointee)
            }
            return nil
        }
    }
}

extension AnySideEffect {
    /// Runs an item of this type as a side effect (the item's type was checked when it was classified).
    static var runner: ItemKind.SideEffectRunner {
        { item, context in
            try withConcrete(item, as: Self.self) { try $0.anySideEffect(context) }
        }
    }
}

extension AsyncSideEffect {
    /// Runs an item of this type as an async side effect (its type was checked when it was classified).
    static var asyncRunner: ItemKind.AsyncSideEffectRunner {
        { item, context in
            // Copied out before the await: the concrete view is only valid inside the call.
            let sideEffect = withConcrete(item, as: Self.self) { $0 }
            return try await sideEffect.runErased(context)
        }
    }
}

/// Calls `body` with `item` as a `T`, which must be the item's dynamic type: the engine keeps an
/// ``ItemKind`` per dynamic type, so the closures it builds for a type only ever see that type.
///
/// Instead of a checked cast (`item as? T`), which costs a metadata look-up and a dynamic cast per
/// item, the existential is opened and its value used in place.
@inline(__always)
private func withConcrete<T: Dispatchable, Result>(
    _ item: any Dispatchable,
    as type: T.Type,
    _ body: (T) throws -> Result
) rethrows -> Result {
    func open<Opened: Dispatchable>(_ opened: Opened) throws -> Result {
        try withUnsafePointer(to: opened) { pointer in
            try body(UnsafeRawPointer(pointer).assumingMemoryBound(to: T.self).pointee)
        }
    }
    return try open(item)
}
