import Katana

/// The Swift Flow dispatch function, as returned by `dispatchFunction`: it dispatches any item and
/// returns its promise (a `Promise<any Sendable>`) typed as `Any`, as Swift Flow declared it.
@available(*, deprecated, message: "Use AnyDispatch, or anyDispatch(_:) on the store")
public typealias DispatchFunction = @Sendable (_ action: any Dispatchable) -> Any

/// What Swift Flow's `dispatch(_:callback:)` calls once the item has been handled: the store's state
/// at that point, which includes the item's own update.
@available(*, deprecated, message: "Use then { ... } on the promise that dispatch(_:) returns")
public typealias DispatchCallback = @Sendable (_ state: any State) -> Void
