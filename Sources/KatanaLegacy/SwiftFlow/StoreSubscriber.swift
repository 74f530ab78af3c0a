import Katana

/// A Swift Flow subscriber seen without its state type: what the store keeps (weakly) and calls.
///
/// Adopt ``StoreSubscriber`` instead; it implements `_newState(state:)` for you.
@available(*, deprecated, message: "Use addListener { oldState, newState in ... } and keep the StoreUnsubscribe it returns")
public protocol AnyStoreSubscriber: AnyObject {
    /// Receives a state of any type; ``StoreSubscriber`` passes it on when it has the subscriber's type.
    func _newState(state: Any)
}

/// A Swift Flow subscriber: an object told the store's state when it subscribes and after every change.
///
/// Subscribe it with `store.subscribe(subscriber)`. The store holds it weakly, calls `newState(state:)`
/// one call at a time and in order (see `subscribe(_:)` for the thread), and never calls it again once
/// `unsubscribe(_:)` has returned. States of another type than `StoreSubscriberStateType` are skipped.
@available(*, deprecated, message: "Use addListener { oldState, newState in ... } and keep the StoreUnsubscribe it returns")
public protocol StoreSubscriber: AnyStoreSubscriber {
    /// The state type the subscriber expects: the store's state type (or a protocol it conforms to).
    associatedtype StoreSubscriberStateType

    /// Called with the store's state when the subscriber subscribes, then with every new state.
    func newState(state: StoreSubscriberStateType)
}

@available(*, deprecated, message: "Use addListener { oldState, newState in ... } and keep the StoreUnsubscribe it returns")
extension StoreSubscriber {
    /// Passes the state on to ``newState(state:)`` when it has the subscriber's state type.
    public func _newState(state: Any) {
        if let typed = state as? StoreSubscriberStateType {
            newState(state: typed)
        }
    }
}
