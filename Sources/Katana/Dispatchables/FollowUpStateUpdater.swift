/// A state updater that also needs to act once its new state is stored: an extension point for
/// libraries that build their own kinds of items on top of the store.
///
/// When the store has applied such an updater, it calls ``followUp(previousState:currentState:context:)``
/// exactly once, with the state before and after this update, on the concurrent side-effect queue
/// (so slow work there never delays later updates). The dispatch promise does not wait for it.
/// `KatanaLegacy` uses it to run a Katana 2.x `ActionWithSideEffect`'s side effect.
public protocol FollowUpStateUpdater: AnyStateUpdater {
    /// Called once after the state this updater produced has been stored.
    func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext)
}
