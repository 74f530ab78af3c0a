/// What a store's shutdown does with the work it has accepted (see `PartialStore.shutdown(_:deadline:gracePeriod:)`).
public enum ShutdownMode: Sendable, Equatable {
    /// Items already dispatched are handled and running side effects finish, together with what
    /// that work dispatches itself; at the deadline, what is left is cancelled.
    case finishWork
    /// What is waiting is not handled, and running async side effects are cancelled, at once.
    case cancelWork
}
