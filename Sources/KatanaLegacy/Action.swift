import Katana

/// A Katana 2.x action: an item that computes the next state from the current one.
///
/// Its one requirement, `updatedState(currentState:)`, is the requirement of ``AnyStateUpdater``, so
/// an action is a state updater: the store applies it on its serial updater queue, in dispatch order
/// together with modern items, and calls the listeners afterwards. A wrong state type returned by it
/// is reported as `KatanaError.invalidStateReturned` and leaves the state unchanged.
@available(*, deprecated, message: "Adopt StateUpdater and implement updateState(_ state: inout YourState)")
public protocol Action: AnyStateUpdater {}

/// A Katana 2.x action that also runs a side effect once its new state has been stored.
///
/// The side effect runs exactly once per handled dispatch, right after the state update, on the thread
/// that applied it and before the store handles the next item (Katana 2.x's order), with the states
/// before and after the update, the store's dependency container and a `dispatch` for further actions. An ``AsyncAction`` runs it only when dispatched in
/// the `loading` state.
@available(*, deprecated, message: "Split it into a StateUpdater and a SideEffect (or AsyncSideEffect) that dispatches it")
public protocol ActionWithSideEffect: Action, FollowUpStateUpdater {
    /// The action's side effect, run after its new state has been stored.
    func sideEffect(
        currentState: State,
        previousState: State,
        dispatch: @escaping StoreDispatch,
        dependencies: SideEffectDependencyContainer
    )
}

@available(*, deprecated, message: "Split it into a StateUpdater and a SideEffect (or AsyncSideEffect) that dispatches it")
extension ActionWithSideEffect {
    /// Bridges the core's follow-up hook to the 2.x side effect; the store calls it, not your code.
    public func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext) {
        if let asyncAction = self as? any AnyAsyncAction, asyncAction.state != .loading {
            return
        }
        sideEffect(
            currentState: currentState,
            previousState: previousState,
            dispatch: legacyDispatch(through: context),
            dependencies: context.anyDependencies
        )
    }
}

/// A 2.x `dispatch` closure that hands every action to the store behind `context`.
@available(*, deprecated, message: "Use the dispatch methods of SideEffectContext")
func legacyDispatch(through context: any AnySideEffectContext) -> StoreDispatch {
    { action in
        context.anyDispatch(action)
    }
}
