extension SideEffectRunner {
    // MARK: - Cancelling

    /// The promise of a side effect the store has taken was cancelled (and rejected already):
    /// one waiting for a worker never runs, an async one that runs has its task cancelled.
    /// `cutBefore` (see ``SideEffectRegistry/cancel(promise:cutBefore:)``) covers one on its way
    /// from the inbox.
    func cancel(promise: PromiseHandle, cutBefore: UInt64?) {
        if let stop = registry.withLock({ $0.cancel(promise: promise, cutBefore: cutBefore) }) {
            Self.carryOut([stop])
            activity.pokeIfWatched()
        }
    }

    /// Cancels the side effects with this id dispatched before `before` (see
    /// ``SideEffectRegistry/cancel(id:before:leavingCut:)``); returns how many were here.
    func cancel(id: SideEffectID, before: UInt64, leavingCut: Bool) -> Int {
        let stops = registry.withLock { $0.cancel(id: id, before: before, leavingCut: leavingCut) }
        Self.carryOut(stops)
        activity.pokeIfWatched()
        return stops.count
    }

    // MARK: - Shutdown

    /// A shutdown begins: side effects are counted from now on.
    func beginShutdown() {
        registry.withLock { $0.beginShutdown() }
    }

    /// A shutdown cancels what is left (see ``SideEffectRegistry/cancelForShutdown()``).
    func cancelForShutdown() {
        Self.carryOut(registry.withLock { $0.cancelForShutdown() })
        activity.pokeIfWatched()
    }

    /// The shutdown returns: what still runs is counted, and its promises are rejected.
    func giveUp() -> Registry.ShutdownCounts {
        let (counts, stops) = registry.withLock { $0.giveUp() }
        Self.carryOut(stops)
        return counts
    }

    // MARK: - Looking

    /// How many side effects the store has taken and not finished.
    var count: Int {
        registry.withLock { $0.count }
    }

    /// Whether no side effect runs or waits, and every promise of one that ran has settled.
    var isIdle: Bool {
        registry.withLock { $0.isIdle }
    }

    /// Whether no side effect waits or is on a worker (and every promise of one that ran there has
    /// settled), and how many async ones run as tasks: for the store's work snapshot.
    var workSnapshot: (isIdleOnWorkers: Bool, tasks: Int) {
        registry.withLock { ($0.isIdleOnWorkers, $0.phases.task) }
    }
}
