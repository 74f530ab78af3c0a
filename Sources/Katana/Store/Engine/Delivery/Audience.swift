/// Who hears about the store's state changes, which decides what the drainer keeps for each update.
enum Audience: Equatable, Sendable {
    /// Nobody: no change is kept, and an updater's promise settles as soon as the state is stored.
    case nobody
    /// Only `stateUpdates` sequences: each change is kept for them, and promises settle as soon as
    /// the state is stored (a sequence's consumer is not waited for).
    case sequences
    /// At least one listener: each change is kept, and an updater's promise settles once every
    /// listener has been called with its change (Katana's order).
    case listeners

    /// Whether the drainer keeps each change for delivery.
    var keepsChanges: Bool {
        self != .nobody
    }

    /// Whether an updater's promise waits for the listeners.
    var promisesWaitForListeners: Bool {
        self == .listeners
    }
}
