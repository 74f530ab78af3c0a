/// How the store handles items of one dynamic type. Worked out once per type (the protocol casts
/// are the expensive part of handling an item) and cached by the engine.
enum ItemKind {
    /// Applies an updater to the state, given a pointer to the store's state; returns the error
    /// when the update cannot happen.
    typealias StateApplier = (_ item: any Dispatchable, _ state: UnsafeMutableRawPointer) -> KatanaError?

    /// Calls a ``FollowUpStateUpdater``'s follow-up with the states around its update.
    typealias FollowUpRunner = (
        _ item: any Dispatchable,
        _ previousState: any State,
        _ currentState: any State,
        _ context: any AnySideEffectContext
    ) -> Void

    /// How to handle the state updaters of one type: one object, so that a kind is copied with a
    /// single retain (docs/PERFORMANCE.md, "Updaters: back-to-back").
    final class Updater {
        /// Applies an updater of the type to the state.
        let apply: StateApplier
        /// Calls its follow-up; nil when the type is not a ``FollowUpStateUpdater``.
        let followUp: FollowUpRunner?

        init(apply: @escaping StateApplier, followUp: FollowUpRunner?) {
            self.apply = apply
            self.followUp = followUp
        }
    }

    /// A state updater, and how to handle one.
    case updater(Updater)
    /// Runs a side effect of the classified type with the store's context (which the runner
    /// holds, checked once for the type), whose place in dispatch order is `sequence` (what it
    /// dispatches comes from it); returns its value.
    typealias SideEffectRunner = @Sendable (_ item: any Dispatchable, _ sequence: UInt64) throws -> any Sendable
    /// How to run the async side effects of one type: one object, so that a kind is copied with a
    /// single retain. ``TypedAsyncSideEffectRunner`` is the one the store makes, for each type.
    class AsyncSideEffectRunner: @unchecked Sendable {
        // @unchecked: its only stored property is a constant metatype; subclasses add constants.

        /// The classified type, for error messages.
        let itemType: any Dispatchable.Type

        init(itemType: any Dispatchable.Type) {
            self.itemType = itemType
        }

        /// Runs an async side effect of the classified type with the store's context (which the
        /// runner holds, checked once for the type), whose place in dispatch order is `sequence`
        /// (what it dispatches comes from it); returns its value. It runs on the caller's
        /// executor (`nonisolated(nonsending)`), so the store's own steps add no executor switch
        /// to the one the side effect's body makes (docs/PERFORMANCE.md, "Side effects: no-op
        /// AsyncSideEffect").
        nonisolated(nonsending) func run(_ item: any Dispatchable, sequence: UInt64) async throws -> any Sendable {
            throw KatanaError.unsupportedDispatchable(item: typeName(of: item))
        }

        /// The side effect's cancellation id and whether it cancels those in flight; nil without an id.
        func identity(_ item: any Dispatchable) -> SideEffectIdentity? {
            nil
        }
    }

    /// A synchronous or returning side effect, and how to run one.
    case sideEffect(SideEffectRunner)
    /// An async side effect, and how to run one.
    case asyncSideEffect(AsyncSideEffectRunner)
    /// Neither an updater nor a side effect.
    case unsupported
    /// Both an updater and a side effect.
    case ambiguous

    /// Classifies `item` for a store whose state type is `S` and whose side effects run with
    /// `context`.
    static func classify<S: State>(_ item: any Dispatchable, storeState: S.Type, context: any AnySideEffectContext) -> ItemKind {
        if item is any AnyStateUpdater {
            if item is any AnySideEffect {
                return .ambiguous
            }
            let followUp = (item as? any FollowUpStateUpdater).map { type(of: $0).followUpRunner }
            if let typed = item as? any StateUpdater {
                return .updater(Updater(apply: type(of: typed).inPlaceApplier(storeState: S.self), followUp: followUp))
            }
            return .updater(Updater(apply: erasedApplier(storeState: S.self), followUp: followUp))
        }
        // The runners open each item as its concrete type (`Unsafe.withConcrete`), which is much
        // cheaper than the protocol casts done here once per type.
        if let sideEffect = item as? any AsyncSideEffect {
            return .asyncSideEffect(type(of: sideEffect).asyncRunner(context: context))
        }
        if let sideEffect = item as? any SideEffect {
            return .sideEffect(type(of: sideEffect).typedRunner(context: context))
        }
        if let sideEffect = item as? any AnySideEffect {
            return .sideEffect(type(of: sideEffect).runner(context: context))
        }
        return .unsupported
    }

    /// Applies a type-erased updater through `updatedState(currentState:)`, checking what it returns.
    private static func erasedApplier<S: State>(storeState: S.Type) -> StateApplier {
        { item, state in
            guard let updater = item as? any AnyStateUpdater else {
                return .unsupportedDispatchable(item: typeName(of: item))
            }
            let pointer = Unsafe.state(at: state, as: S.self)
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
            Unsafe.withConcrete(item, as: Self.self) { updater in
                updater.updateState(&Unsafe.state(at: state, as: StateType.self).pointee)
            }
            return nil
        }
    }
}

extension FollowUpStateUpdater {
    /// Calls the follow-up of an item of this type (the item's type was checked when it was classified).
    static var followUpRunner: ItemKind.FollowUpRunner {
        { item, previousState, currentState, context in
            Unsafe.withConcrete(item, as: Self.self) {
                $0.followUp(previousState: previousState, currentState: currentState, context: context)
            }
        }
    }
}

extension AnySideEffect {
    /// Runs items of this type through ``AnySideEffect/anySideEffect(_:)`` with `context` (the
    /// item's type was checked when it was classified).
    static func runner(context: any AnySideEffectContext) -> ItemKind.SideEffectRunner {
        let stamping = context as? any StoreContext
        let dispatcher = OriginStamp.dispatcher(Self.self)
        return { item, sequence in
            let stamped = stamping?.stampedContext(.sideEffect(dispatcher: dispatcher, sequence: sequence)) ?? context
            return try Unsafe.withConcrete(item, as: Self.self) { try $0.anySideEffect(stamped) }
        }
    }
}

extension SideEffect {
    /// Runs items of this type with `context` seen as their typed context: the context's type is
    /// checked here, once for the type, instead of once per item as
    /// ``SideEffect/anySideEffect(_:)`` does (docs/PERFORMANCE.md, "Side effects: no-op SideEffect").
    static func typedRunner(context: any AnySideEffectContext) -> ItemKind.SideEffectRunner {
        guard let typed = context as? SideEffectContext<StateType, Dependencies> else {
            return runner(context: context)
        }
        let dispatcher = OriginStamp.dispatcher(Self.self)
        return { item, sequence in
            let stamped = typed.stamped(.sideEffect(dispatcher: dispatcher, sequence: sequence))
            try Unsafe.withConcrete(item, as: Self.self) { try $0.sideEffect(stamped) }
            return ()
        }
    }
}

extension AsyncSideEffect {
    /// Runs items of this type as async side effects with `context` seen as their typed context,
    /// checked here once for the type (the item's type was checked when it was classified).
    static func asyncRunner(context: any AnySideEffectContext) -> ItemKind.AsyncSideEffectRunner {
        TypedAsyncSideEffectRunner<Self>(context: context)
    }
}

/// How the store runs the async side effects of one type `T`: generic over it, so each call goes
/// straight to `T`'s own code, and holding the store's context as `T`'s typed context, checked
/// once. A context of other types makes each run throw
/// ``KatanaError/sideEffectContextMismatch(sideEffect:expected:actual:)``.
final class TypedAsyncSideEffectRunner<T: AsyncSideEffect>: ItemKind.AsyncSideEffectRunner, @unchecked Sendable {
    // @unchecked: every stored property is a constant of a `Sendable` type.
    private let context: SideEffectContext<T.StateType, T.Dependencies>?
    private let actualContextType: String
    /// The number origin stamps give `T`.
    private let dispatcher: UInt64

    init(context: any AnySideEffectContext) {
        self.context = context as? SideEffectContext<T.StateType, T.Dependencies>
        actualContextType = typeName(type(of: context))
        dispatcher = OriginStamp.dispatcher(T.self)
        super.init(itemType: T.self)
    }

    nonisolated(nonsending) override func run(_ item: any Dispatchable, sequence: UInt64) async throws -> any Sendable {
        // Copied out before the await: the concrete view is only valid inside the call.
        let sideEffect = Unsafe.withConcrete(item, as: T.self) { $0 }
        guard context != nil else {
            throw KatanaError.sideEffectContextMismatch(
                sideEffect: typeName(T.self),
                expected: typeName(SideEffectContext<T.StateType, T.Dependencies>.self),
                actual: actualContextType
            )
        }
        return try await sideEffect.sideEffect(context.unsafelyUnwrapped.stamped(.sideEffect(dispatcher: dispatcher, sequence: sequence)))
    }

    override func identity(_ item: any Dispatchable) -> SideEffectIdentity? {
        Unsafe.withConcrete(item, as: T.self) { sideEffect in
            sideEffect.cancellationID.map { SideEffectIdentity(id: $0, cancelsInFlight: sideEffect.cancelsInFlight) }
        }
    }
}
