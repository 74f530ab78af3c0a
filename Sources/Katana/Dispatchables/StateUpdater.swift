/// A type-erased state updater: it computes a new state from the current one.
///
/// Use it for updaters that are not tied to one concrete state type (in a library, for
/// example). Application code normally adopts ``StateUpdater`` instead.
public protocol AnyStateUpdater: Dispatchable {
    /// Returns the state that follows `currentState`.
    func updatedState(currentState: any State) -> any State
}

/// An intent to change the state of a store whose state is `StateType`.
///
/// `updateState(_:)` must be pure and quick: it runs on the store's serial updater queue, one
/// updater at a time, in dispatch order, and it mutates the state in place.
public protocol StateUpdater: AnyStateUpdater {
    /// The state type this updater changes; it must be the store's state type.
    associatedtype StateType: State

    /// Changes `state` in place.
    func updateState(_ state: inout StateType)
}

extension StateUpdater {
    /// Applies ``updateState(_:)`` to a copy of `currentState`; a state of another type is
    /// returned unchanged (the store reports that case as ``KatanaError/stateTypeMismatch(updater:expected:actual:)``).
    public func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? StateType else { return currentState }
        updateState(&state)
        return state
    }
}
