/// The delivery holds the store while changes wait for its listeners (docs/Architecture.md,
/// "Lifetimes"): an updater is handled once its listeners have heard it, so a store whose last
/// outside reference goes right after a dispatch still calls them. Running listeners are the
/// store's own work, like the items in its inbox; once the delivery is idle the store goes with its
/// last reference.
extension DeliveryStateMachine {
    /// Once no delivery is under way (idle, or stopped), hands back the store the delivery held,
    /// for ``ListenerDelivery`` to let go of outside the lock (the store may be released there).
    mutating func releaseOwnerIfIdle() -> AnyObject? {
        switch phase {
        case .idle, .stopped:
            defer { keptAlive = nil }
            return keptAlive
        case .delivering, .deliveringThenStop:
            return nil
        }
    }
}
