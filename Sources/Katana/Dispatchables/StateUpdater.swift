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

    /// Mutates the state held by `box` in place when it holds this updater's state type.
    ///
    /// Going through the box (a class) instead of an existential keeps the state uniquely
    /// referenced, so a large state is not copied on every update.
    func applyInPlace(to box: AnyObject) -> Bool {
        guard let box = box as? StateBox<StateType> else { return false }
        updateState(&box.value)
        return true
    }
}

/// The store's current state, held in a class so updaters can mutate it in place.
///
/// Owned by one store engine: `value` is written only on the updater queue while holding the
/// engine's state lock, and read by other threads only under that lock.
final class StateBox<S: State>: @unchecked Sendable {
    // Guarded by the owning engine's `stateLock` (see StoreEngine).
    var value: S

    init(_ value: S) {
        self.value = value
    }
}
