import Dispatch

// Katana 3.x's `thenDispatch`, which sent the item to the one store the app had made (a global
// Katana kept). This package has no global store: the item goes to the store this promise comes
// from, the one `store.dispatch(_:)` sent its item to, which every promise made from it (by `then`,
// `thenDispatch`, `recover`, `retry`, …, or by `all`, `any` and `zip` over promises of that one
// store) keeps as the store's engine number (never a reference, so a chain does not keep a store
// alive; once the store is released the dispatch is rejected with `storeDeallocated`). On a
// promise that never came from a store (one made with `Promise(...)`, a side-effect context's
// dispatch, a combination of several stores) the result is rejected with
// `KatanaError.thenDispatchWithoutStore`, whose description names the replacement.

extension Promise {
    /// Katana 3.x: once this promise is fulfilled, dispatches `item` to the store this promise
    /// comes from; the result settles with that dispatch.
    @available(*, deprecated, message: "Katana 3.x API: write then { _ in store.dispatch(item) } instead.")
    @discardableResult
    public func thenDispatch<Item: AnyStateUpdater>(_ item: Item) -> Promise<Void> {
        dispatchingNext { _ in item }
    }

    /// Katana 3.x: once this promise is fulfilled, dispatches the side effect `item` to the store
    /// this promise comes from; the result settles with that dispatch.
    @available(*, deprecated, message: "Katana 3.x API: write then { _ in store.dispatch(item) } instead.")
    @discardableResult
    public func thenDispatch<Item: AnySideEffect>(_ item: Item) -> Promise<Void> {
        dispatchingNext { _ in item }
    }

    /// Katana 3.x: dispatches the returning side effect `item` once this promise is fulfilled; the
    /// result is fulfilled with the side effect's value.
    @available(*, deprecated, message: "Katana 3.x API: write then { _ in store.dispatch(item) } instead.")
    @discardableResult
    public func thenDispatch<Item: ReturningSideEffect>(_ item: Item) -> Promise<Item.ReturnValue> {
        dispatchingNext { _ in item }
    }

    /// Katana 3.x's `thenDispatch` for an ``AsyncSideEffect``; the result is fulfilled with its value.
    @available(*, deprecated, message: "Katana 3.x API: write then { _ in store.dispatch(item) } instead.")
    @discardableResult
    public func thenDispatch<Item: AsyncSideEffect>(_ item: Item) -> Promise<Item.ReturnValue> {
        dispatchingNext { _ in item }
    }

    /// Katana 3.x: once this promise is fulfilled, dispatches the state updater `body` makes from
    /// the value (a thrown error rejects the result) to the store this promise comes from.
    @available(*, deprecated, message: "Katana 3.x API: write then { value in store.dispatch(makeItem(value)) } instead.")
    @discardableResult
    public func thenDispatch<Item: AnyStateUpdater>(_ body: @escaping @Sendable (Value) throws -> Item) -> Promise<Void> {
        dispatchingNext(body)
    }

    /// Katana 3.x: once this promise is fulfilled, dispatches the side effect `body` makes from the value.
    @available(*, deprecated, message: "Katana 3.x API: write then { value in store.dispatch(makeItem(value)) } instead.")
    @discardableResult
    public func thenDispatch<Item: AnySideEffect>(_ body: @escaping @Sendable (Value) throws -> Item) -> Promise<Void> {
        dispatchingNext(body)
    }

    /// Katana 3.x: dispatches the returning side effect `body` makes from the value; the result is
    /// fulfilled with the side effect's value.
    @available(*, deprecated, message: "Katana 3.x API: write then { value in store.dispatch(makeItem(value)) } instead.")
    @discardableResult
    public func thenDispatch<Item: ReturningSideEffect>(
        _ body: @escaping @Sendable (Value) throws -> Item
    ) -> Promise<Item.ReturnValue> {
        dispatchingNext(body)
    }

    /// Katana 3.x's `thenDispatch` with a body that makes an ``AsyncSideEffect``.
    @available(*, deprecated, message: "Katana 3.x API: write then { value in store.dispatch(makeItem(value)) } instead.")
    @discardableResult
    public func thenDispatch<Item: AsyncSideEffect>(
        _ body: @escaping @Sendable (Value) throws -> Item
    ) -> Promise<Item.ReturnValue> {
        dispatchingNext(body)
    }

    /// Once this promise is fulfilled, dispatches the item `makeItem` returns to this promise's store.
    private func dispatchingNext<Result: Sendable>(
        _ makeItem: @escaping @Sendable (Value) throws -> any Dispatchable
    ) -> Promise<Result> {
        let engineNumber = storeEngineNumber
        return then { (value: Value) throws -> Promise<Result> in
            let item = try makeItem(value)
            guard let engineNumber else {
                throw KatanaError.thenDispatchWithoutStore(item: typeName(of: item))
            }
            return DispatchWork(item: item, engineNumber: engineNumber).redispatch()
        }
    }
}
