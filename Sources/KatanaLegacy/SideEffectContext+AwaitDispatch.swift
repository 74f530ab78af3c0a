import Katana

// Katana 3.x's `awaitDispatch(_:)`: dispatch from a side effect and block until the item has been
// handled (`try Hydra.await(context.dispatch(item))` in one call). Here it is
// `dispatch(_:).wait(timeout:)` under the same rules as every blocking wait of the package: it has a
// deadline (3.x waited for ever; the default here is 10 seconds, and the extra parameter lets a
// caller choose), it throws `KatanaError.waitTimedOut` when the deadline passes, and
// `KatanaError.waitOnStoreQueue` at once on the store's own queue (in an updater, an interceptor
// running for an updater, an immediate listener), where waiting would dead-lock. A blocked side
// effect holds its worker while it waits; the store starts the next side effect on another one.

extension AnySideEffectContext {
    /// Katana 3.x: dispatches the state updater `dispatchable` and blocks until the new state is
    /// stored, throwing the dispatch's error, or ``KatanaError/waitTimedOut(after:)`` once `timeout` passes.
    @available(*, deprecated, message: "Write try context.dispatch(item).wait(timeout:) in a SideEffect, or try await context.dispatch(item).value in an AsyncSideEffect")
    public func awaitDispatch<T: AnyStateUpdater>(_ dispatchable: T, timeout: Duration = .seconds(10)) throws {
        try dispatch(dispatchable).wait(timeout: timeout)
    }

    /// Katana 3.x: dispatches the side effect `dispatchable` and blocks until its body returns,
    /// throwing the error it throws, or ``KatanaError/waitTimedOut(after:)`` once `timeout` passes.
    @available(*, deprecated, message: "Write try context.dispatch(item).wait(timeout:) in a SideEffect, or try await context.dispatch(item).value in an AsyncSideEffect")
    public func awaitDispatch<T: AnySideEffect>(_ dispatchable: T, timeout: Duration = .seconds(10)) throws {
        try dispatch(dispatchable).wait(timeout: timeout)
    }

    /// Katana 3.x: dispatches the returning side effect `dispatchable`, blocks until it returns and
    /// gives its value; throws its error, or ``KatanaError/waitTimedOut(after:)`` once `timeout` passes.
    @available(*, deprecated, message: "Write try context.dispatch(item).wait(timeout:) in a SideEffect, or try await context.dispatch(item).value in an AsyncSideEffect")
    @discardableResult
    public func awaitDispatch<T: ReturningSideEffect>(_ dispatchable: T, timeout: Duration = .seconds(10)) throws -> T.ReturnValue {
        try dispatch(dispatchable).wait(timeout: timeout)
    }

    /// Dispatches the async side effect `dispatchable` and blocks until its task ends, giving its
    /// value; throws its error, or ``KatanaError/waitTimedOut(after:)`` once `timeout` passes.
    @available(*, deprecated, message: "Write try context.dispatch(item).wait(timeout:) in a SideEffect, or try await context.dispatch(item).value in an AsyncSideEffect")
    @discardableResult
    public func awaitDispatch<T: AsyncSideEffect>(_ dispatchable: T, timeout: Duration = .seconds(10)) throws -> T.ReturnValue {
        try dispatch(dispatchable).wait(timeout: timeout)
    }

    /// Katana 3.x's `awaitDispatch` for an item typed as the existential `Dispatchable`: dispatches
    /// it with `anyDispatch(_:)` and blocks until it has been handled, throwing its error, or
    /// ``KatanaError/waitTimedOut(after:)`` once `timeout` passes.
    ///
    /// Generic rather than taking `any Dispatchable`, so that it is the least specific overload: an
    /// item of a concrete type goes to the typed one above; an existential argument is opened into `T`.
    @available(*, deprecated, message: "Write try context.anyDispatch(item).wait(timeout:) in a SideEffect, or try await context.anyDispatch(item).value in an AsyncSideEffect")
    public func awaitDispatch<T: Dispatchable>(_ dispatchable: T, timeout: Duration = .seconds(10)) throws {
        try anyDispatch(dispatchable).wait(timeout: timeout)
    }
}
