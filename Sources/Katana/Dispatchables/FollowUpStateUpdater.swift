/// A state updater that also needs to act once its new state is stored: an extension point for
/// libraries that build their own kinds of items on top of the store.
///
/// When the store has applied such an updater, it calls ``followUp(previousState:currentState:context:)``
/// exactly once, with the states before and after this update, right after the update, on the
/// thread that applied it, before it handles the next item. So whatever the follow-up dispatches
/// comes after everything dispatched before the updater, and the next item sees what the follow-up
/// did synchronously. It runs while the store handles items: keep it short, and do not wait on
/// promises there (``KatanaError/waitOnStoreQueue``). The dispatch promise settles after it.
public protocol FollowUpStateUpdater: AnyStateUpdater {
    /// Called once after the state this updater produced has been stored.
    func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext)
}
