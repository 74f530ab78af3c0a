import Dispatch
import Katana

// The Swift Flow store protocol, served by every store. Swift Flow's methods were written in Swift 2,
// whose call sites leave out the first label (`store.dispatch(action)`, `store.subscribe(self)`); the
// Swift 3 spellings with the label (`dispatch(action:)`, `subscribe(subscriber:)`) are here too.
// `store.dispatch(action)` itself is the store's own `dispatch(_:)`.

extension AnyStore {
    // MARK: - State

    /// The current state, type-erased as Swift Flow's `appState` was (cast it to your state type).
    @available(*, deprecated, message: "Use state (typed) or anyState")
    public var appState: any State {
        anyState
    }

    /// A function that dispatches any item and returns its promise as `Any`.
    ///
    /// Implicitly unwrapped, as Swift Flow declared it, so `dispatchFunction!(action)` compiles; it is
    /// never nil. It holds the store weakly: once the store is gone, its promises are rejected with
    /// `KatanaError.storeDeallocated`.
    @available(*, deprecated, message: "Use anyDispatch(_:) (an AnyDispatch closure: { store.anyDispatch($0) })")
    public var dispatchFunction: DispatchFunction! {
        { [weak self] action in
            guard let self else {
                return Promise<any Sendable>(rejected: KatanaError.storeDeallocated(item: String(reflecting: type(of: action))))
            }
            return self.anyDispatch(action)
        }
    }

    // MARK: - Subscribers

    /// Subscribes `subscriber`: it is called at once with the store's state, then with every new
    /// state, in order, one call at a time; it is held weakly. Subscribing it again does nothing.
    ///
    /// The first call runs on this thread, before `subscribe` returns (with changes that arrive while
    /// it runs); the later ones on the store's listener executor (Katana's listener threading: the
    /// main queue on Apple platforms by default). The first state is the one the store's listeners
    /// have last been told about, so the subscriber sees exactly the changes after it; the very first
    /// subscriber of a store gets the store's state instead, and changes that were still on their way
    /// to the listeners (already part of that state) may follow it. A store that is not ready yet has
    /// no state: the subscriber then gets its first state with the first change.
    @available(*, deprecated, message: "Use addListener { oldState, newState in ... } and keep the StoreUnsubscribe it returns")
    public func subscribe(_ subscriber: any AnyStoreSubscriber) {
        let registry = SubscriberRegistryDirectory.shared.registry(for: self)
        // Read after the registry's listener exists, so no change falls between the two.
        let current: (any State)? = isReady ? anyState : nil
        registry.subscribe(subscriber, current: current)
    }

    /// Subscribes `subscriber`; see ``subscribe(_:)``.
    @available(*, deprecated, message: "Use addListener { oldState, newState in ... } and keep the StoreUnsubscribe it returns")
    public func subscribe(subscriber: any AnyStoreSubscriber) {
        subscribe(subscriber)
    }

    /// Unsubscribes `subscriber`: once this returns it is never called again. A call running on another
    /// thread is waited for, so do not make `newState` wait for the thread that unsubscribes. Calling
    /// it from inside the subscriber's own `newState` is fine. Unsubscribing twice, or an object that
    /// never subscribed, does nothing.
    @available(*, deprecated, message: "Call the StoreUnsubscribe closure that addListener(_:) returned")
    public func unsubscribe(_ subscriber: any AnyStoreSubscriber) {
        SubscriberRegistryDirectory.shared.existingRegistry(for: self)?.unsubscribe(subscriber)
    }

    /// Unsubscribes `subscriber`; see ``unsubscribe(_:)``.
    @available(*, deprecated, message: "Call the StoreUnsubscribe closure that addListener(_:) returned")
    public func unsubscribe(subscriber: any AnyStoreSubscriber) {
        unsubscribe(subscriber)
    }

    // MARK: - Items

    /// Dispatches any item; the promise carries its type-erased result.
    @available(*, deprecated, message: "Use dispatch(_:) on a typed store, or anyDispatch(_:)")
    @discardableResult
    public func dispatch(action: any Dispatchable) -> Promise<any Sendable> {
        anyDispatch(action)
    }

    /// Dispatches any item and, once it has been handled, calls `callback` with the store's state,
    /// which includes the item's update.
    ///
    /// The callback runs on the main queue on Apple platforms (where Swift Flow apps update their UI)
    /// and on a global queue elsewhere (no run loop needed), after the listeners and subscribers have
    /// been told about the change. It is not called if the item fails (see the promise).
    @available(*, deprecated, message: "Use dispatch(_:) and then { ... } on its promise (read the state there)")
    @discardableResult
    public func dispatch(_ action: any Dispatchable, callback: DispatchCallback?) -> Promise<any Sendable> {
        let promise = anyDispatch(action)
        if let callback {
            promise.then(in: swiftFlowCallbackQueue()) { [self] _ in
                callback(self.anyState)
            }
        }
        return promise
    }

    /// Dispatches any item and calls `callback` with the new state; see `dispatch(_:callback:)`.
    @available(*, deprecated, message: "Use dispatch(_:) and then { ... } on its promise (read the state there)")
    @discardableResult
    public func dispatch(action: any Dispatchable, callback: DispatchCallback?) -> Promise<any Sendable> {
        dispatch(action, callback: callback)
    }

    // MARK: - Action creators

    /// Calls `actionCreator` now, on this thread, with the store's state and the store, and dispatches
    /// the item it returns. Returns nil, dispatching nothing, when it returns nil.
    ///
    /// A store that is not ready yet has no state: the creator is not called, and the promise is
    /// rejected with ``SwiftFlowError/storeNotReady``.
    @available(*, deprecated, message: "Dispatch a SideEffect that reads context.getState() and dispatches what it decides")
    @discardableResult
    public func dispatch(_ actionCreator: ActionCreator) -> Promise<any Sendable>? {
        dispatch(actionCreator, callback: nil)
    }

    // Disfavoured: a trailing closure (`store.dispatch { state, store in ... }`) also fits this
    // labelled form; the unlabelled one must win.
    /// Dispatches what `actionCreator` returns; see `dispatch(_:)` for an action creator.
    @_disfavoredOverload
    @available(*, deprecated, message: "Dispatch a SideEffect that reads context.getState() and dispatches what it decides")
    @discardableResult
    public func dispatch(actionCreator: ActionCreator) -> Promise<any Sendable>? {
        dispatch(actionCreator, callback: nil)
    }

    /// Dispatches what `actionCreator` returns and calls `callback` with the new state once it has
    /// been handled (see `dispatch(_:callback:)`). When the creator returns nil,
    /// nothing is dispatched and `callback` is never called.
    @available(*, deprecated, message: "Dispatch a SideEffect that reads context.getState() and dispatches what it decides; use then { ... } on its promise")
    @discardableResult
    public func dispatch(_ actionCreator: ActionCreator, callback: DispatchCallback?) -> Promise<any Sendable>? {
        guard isReady else {
            return Promise(rejected: SwiftFlowError.storeNotReady)
        }
        guard let action = actionCreator(anyState, self) else {
            return nil
        }
        return dispatch(action, callback: callback)
    }

    /// Dispatches what `actionCreator` returns, with a callback; see `dispatch(_:callback:)` for an action creator.
    @available(*, deprecated, message: "Dispatch a SideEffect that reads context.getState() and dispatches what it decides; use then { ... } on its promise")
    @discardableResult
    public func dispatch(actionCreator: ActionCreator, callback: DispatchCallback?) -> Promise<any Sendable>? {
        dispatch(actionCreator, callback: callback)
    }

    // MARK: - Asynchronous action creators

    /// Calls `asyncActionCreator` now, on this thread, with the store's state, the store and a
    /// callback; each action creator it later hands to that callback (from any thread) is dispatched
    /// as by `dispatch(_:)` for an action creator. On a store that is not ready yet it is not called.
    @available(*, deprecated, message: "Use an AsyncSideEffect that awaits the work and dispatches its result")
    public func dispatch(_ asyncActionCreator: AsyncActionCreator) {
        dispatch(asyncActionCreator, callback: nil)
    }

    // Disfavoured: a trailing closure (`store.dispatch { state, store in ... }`) also fits this
    // labelled form; the unlabelled one must win.
    /// Dispatches an asynchronous action creator; see `dispatch(_:)` for an asynchronous action creator.
    @_disfavoredOverload
    @available(*, deprecated, message: "Use an AsyncSideEffect that awaits the work and dispatches its result")
    public func dispatch(asyncActionCreator: AsyncActionCreator) {
        dispatch(asyncActionCreator, callback: nil)
    }

    /// Dispatches an asynchronous action creator and calls `callback` with the new state once the item
    /// it eventually produces has been handled (never, if its action creator returns nil).
    @available(*, deprecated, message: "Use an AsyncSideEffect that awaits the work and dispatches its result; await its promise")
    public func dispatch(_ asyncActionCreator: AsyncActionCreator, callback: DispatchCallback?) {
        guard isReady else {
            return
        }
        asyncActionCreator(anyState, self) { [self] actionCreator in
            self.dispatch(actionCreator, callback: callback)
        }
    }

    /// Dispatches an asynchronous action creator, with a callback; see `dispatch(_:callback:)` for an asynchronous action creator.
    @available(*, deprecated, message: "Use an AsyncSideEffect that awaits the work and dispatches its result; await its promise")
    public func dispatch(asyncActionCreator: AsyncActionCreator, callback: DispatchCallback?) {
        dispatch(asyncActionCreator, callback: callback)
    }
}

/// Where Swift Flow dispatch callbacks run: the main queue on Apple platforms, a global queue elsewhere.
private func swiftFlowCallbackQueue() -> DispatchQueue {
    #if canImport(Darwin)
    return DispatchQueue.main
    #else
    return DispatchQueue.global()
    #endif
}
