/// What a store is doing at one moment (see `PartialStore.workSnapshot`): for tools that wait for a
/// store to settle, such as a test store, and for health checks.
public struct StoreWorkSnapshot: Sendable, Hashable {
    /// Items dispatched to the store so far. Two snapshots with the same count and ``isIdle`` mean
    /// that nothing was dispatched in between.
    public let dispatchedCount: UInt64
    /// Whether no item is waiting or being handled, no listener call is pending, and no
    /// synchronous side effect is waiting for a worker or running. Async side effects may still be
    /// suspended: they are counted in ``runningAsyncSideEffects``.
    public let isIdle: Bool
    /// Async side effects that have begun and whose body has not ended, suspended ones included.
    public let runningAsyncSideEffects: Int

    /// A snapshot with these figures (the store makes them; public for tests of the user's own).
    public init(dispatchedCount: UInt64, isIdle: Bool, runningAsyncSideEffects: Int) {
        self.dispatchedCount = dispatchedCount
        self.isIdle = isIdle
        self.runningAsyncSideEffects = runningAsyncSideEffects
    }
}
