/// The inbox holds the store while work it accepted waits (docs/Architecture.md, "Lifetimes"):
/// Katana 3.x kept its store alive through a hidden global and handled that work; Katana 6 crashed.
/// Here the store lives until its inbox is idle, then goes with its last reference as usual; a side
/// effect still running does not hold it.
extension DrainStateMachine {
    /// Holds the store for the items waiting, unless it is held already or the item comes from the
    /// store's own work (whose rules and side effects must not keep it alive by dispatching).
    mutating func holdOwner(_ owner: () -> AnyObject?, unlessFromStoreWork fromStoreWork: Bool = false) {
        if !fromStoreWork, keptAlive == nil {
            keptAlive = owner()
        }
    }

    /// Once nothing waits and nobody drains (idle, or stopped), hands back the store the inbox
    /// held, for the engine to let go of outside the lock (the store may be released there).
    mutating func releaseOwnerIfIdle() -> AnyObject? {
        switch phase {
        case .idle, .stopped:
            defer { keptAlive = nil }
            return keptAlive
        case .starting, .scheduled, .draining, .drainingWithBlockQueued, .drainingThenStop:
            return nil
        }
    }
}
