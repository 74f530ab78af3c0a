/// A synchronous side effect dispatched to an idle store goes into the side-effect registry while
/// the dispatching thread holds the inbox's lock: nothing is waiting and nobody drains, so the order
/// holds, and the store stays idle, with no right handed out and none given back (docs/PERFORMANCE.md,
/// "Side effects: no-op SideEffect").
extension DrainStateMachine {
    /// The drainer, while the store is idle and takes every item: the holder of the lock may use
    /// it (its kind cache) to take an item in place, and then calls ``countTakenInPlace()``.
    /// Unretained: the phase holds it for as long as the lock is held and the store stays idle, so
    /// the dispatching thread uses it without a retain and a release per item.
    var drainerWhileIdle: Unmanaged<Drainer>? {
        guard intake == .open, case .idle(let drainer) = phase else { return nil }
        return Unsafe.unretained(drainer)
    }

    /// An item was taken in place while the store was idle: it counts as enqueued, and the phase
    /// stays idle.
    mutating func countTakenInPlace() {
        enqueuedCount &+= 1
    }
}
