/// The container of a store's dependencies (API clients, storage, clocks, ...), handed to every
/// side effect so they can be replaced in tests.
///
/// The store creates it once, before anything else, with closures that dispatch to the store and
/// read its state (reading before the store is ready is not allowed; dispatching is).
public protocol SideEffectDependencyContainer: AnyObject, Sendable {
    /// Creates the container; keep `dispatch` and `getState` if the dependencies need them.
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState)
}

/// A dependency container with nothing in it, for stores whose side effects need no dependencies.
public final class EmptySideEffectDependencyContainer: SideEffectDependencyContainer {
    /// Creates the empty container; the closures are not kept.
    public init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}
