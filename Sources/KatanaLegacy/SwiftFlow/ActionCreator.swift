import Katana

/// A Swift Flow action creator: given the current state and the store, it returns the item to
/// dispatch, or nil to dispatch nothing.
///
/// `store.dispatch(creator)` calls it at once, on the calling thread, with the state the store holds
/// at that moment, and dispatches what it returns.
@available(*, deprecated, message: "Read the state and dispatch from a SideEffect (context.getState(), context.dispatch(_:))")
public typealias ActionCreator = (_ state: any State, _ store: any AnyStore) -> (any Dispatchable)?

/// A Swift Flow asynchronous action creator: it starts some work and, when the work is done, hands an
/// ``ActionCreator`` to `actionCreatorCallback`, which the store then evaluates and dispatches.
///
/// The callback may be called from any thread, and more than once (each call dispatches).
@available(*, deprecated, message: "Use an AsyncSideEffect that awaits the work and dispatches its result")
public typealias AsyncActionCreator = (
    _ state: any State,
    _ store: any AnyStore,
    _ actionCreatorCallback: @escaping @Sendable (_ actionCreator: ActionCreator) -> Void
) -> Void
