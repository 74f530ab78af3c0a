/// How much work a store has at one moment: what a service's gauges report (see
/// `PartialStore.load`, and ``AnySideEffectContext/storeLoad`` for an interceptor).
public struct StoreLoad: Sendable, Hashable {
    /// Items dispatched to the store that it has not started to handle: the depth of its inbox.
    public let waitingItems: Int
    /// Side effects handed to the store's workers that have not ended: those waiting for a
    /// worker, those running, and async ones until their body returns.
    public let activeSideEffects: Int

    /// A load with these figures (the store makes them; public for tests of the user's own).
    public init(waitingItems: Int, activeSideEffects: Int) {
        self.waitingItems = waitingItems
        self.activeSideEffects = activeSideEffects
    }
}
