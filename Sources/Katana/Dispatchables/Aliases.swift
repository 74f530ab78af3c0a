/// Dispatches any item and returns a promise of its type-erased result.
public typealias AnyDispatch = @Sendable (any Dispatchable) -> Promise<any Sendable>

/// Returns the store's current state, type-erased.
public typealias GetState = @Sendable () -> any State

/// A listener of a store whose state is `S`: it receives the state before and after each update.
public typealias StoreListener<S: State> = @Sendable (_ oldState: S, _ newState: S) -> Void

/// A type-erased listener: it receives the state before and after each update.
public typealias AnyStoreListener = @Sendable (_ oldState: any State, _ newState: any State) -> Void

/// Removes the listener it was returned for; calling it more than once does nothing.
public typealias StoreUnsubscribe = @Sendable () -> Void

/// Hands an item to the next interceptor (or, after the last one, to the store).
public typealias StoreInterceptorNext = @Sendable (any Dispatchable) throws -> Void

/// Sees every dispatched item before the store handles it.
///
/// The store calls the outer closure once, when it starts, with its context; it calls the
/// middle closure with the next step of the chain; the inner closure runs for every item.
/// Call `next(item)` to pass the item on, do not call it to block the item, call it with
/// another item to replace it, or throw to reject it. The decision is synchronous: when the inner
/// closure returns without having called `next`, the item counts as blocked and its promise settles
/// (it never hangs). Calling `next` later, from elsewhere, still gets the item handled in turn, but
/// its outcome is then not reported through the original promise. The first item passed on while an
/// item goes through the chain is the one whose outcome settles that item's promise. A state
/// updater is handled inside `next` (its promise is fulfilled there), so code an interceptor runs
/// after `next` returns may still be running when the dispatcher sees the promise fulfilled.
public typealias StoreInterceptor = @Sendable (_ context: any AnySideEffectContext)
    -> (_ next: @escaping StoreInterceptorNext) -> StoreInterceptorNext

/// Starts a task that runs `operation` (an ``AsyncSideEffect``'s body and the settling of its
/// promise) and returns it, so that the store can cancel it; see
/// `Store.Configuration.asyncSideEffectTaskStarter`.
package typealias AsyncSideEffectTaskStarter = @Sendable (_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never>
