/// A store seen without its state and dependency types, for code that works with any store.
public protocol AnyStore: AnyObject, Sendable {
    /// The current state, type-erased (see ``PartialStore/state`` for when it may be read).
    var anyState: any State { get }

    /// Whether the store has finished starting and handles dispatched items.
    var isReady: Bool { get }

    /// Adds a listener called with the state before and after every handled state updater.
    @discardableResult
    func addAnyListener(_ listener: @escaping AnyStoreListener) -> StoreUnsubscribe

    /// Dispatches any item; the promise carries its type-erased result.
    @discardableResult
    func anyDispatch(_ dispatchable: any Dispatchable) -> Promise<any Sendable>
}
