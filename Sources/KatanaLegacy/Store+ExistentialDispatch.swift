import Katana

extension AnyStore {
    /// Dispatches an item typed as the existential `Dispatchable` (as Katana 3.x allowed), or any item
    /// through a store typed as `AnyStore` (as Katana 2.x and Swift Flow action creators did); the
    /// promise is ``AnyStore/anyDispatch(_:)``'s, carrying the type-erased result (`()` for updaters).
    ///
    /// Generic rather than taking `any Dispatchable`, so that it is the least specific `dispatch(_:)`:
    /// on a concrete store, an item of a concrete updater or side-effect type still goes to the store's
    /// typed overload and gets its typed promise; an existential argument is opened into `T`.
    @available(*, deprecated, message: "Use anyDispatch(_:), which takes any Dispatchable and returns the same promise")
    @discardableResult
    public func dispatch<T: Dispatchable>(_ dispatchable: T) -> Promise<any Sendable> {
        anyDispatch(dispatchable)
    }
}
