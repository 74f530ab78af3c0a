extension PartialStore {
    // MARK: - Cancelling side effects

    /// Cancels every ``AsyncSideEffect`` dispatched so far whose ``AsyncSideEffect/cancellationID``
    /// is `id` and that has not ended: one still waiting in the store's inbox is never handled, a
    /// running one has its task cancelled, and one on its way to a worker is cancelled before it
    /// starts. Their promises are rejected with ``KatanaError/cancelled(item:)``. Side effects with
    /// that id dispatched after the call are not affected.
    ///
    /// Returns how many were waiting or running (one being handed to a worker at that very moment
    /// is cancelled too, but not counted).
    @discardableResult
    public func cancelSideEffects(id: SideEffectID) -> Int {
        engine.cancelSideEffects(id: id)
    }

    /// How many side effects have been handed to the store's workers and have not ended: those
    /// waiting for a worker, those running, and async ones until their body returns (cancelled
    /// ones included). For health checks, and for tests that must know the store has gone quiet.
    public var activeSideEffectCount: Int {
        engine.sideEffects.withLock { $0 }?.count ?? 0
    }

    /// How much work the store has now: items waiting in its inbox, and side effects not yet ended.
    /// For a service's gauges (an interceptor reads the same through
    /// ``AnySideEffectContext/storeLoad``).
    public var load: StoreLoad {
        engine.load()
    }

    /// What the store is doing now: whether it is idle (nothing waiting, being handled or waiting
    /// for its listeners, no synchronous side effect at work), how many items it has been given,
    /// and how many async side effects are running or suspended. A tool waits for a store to
    /// settle by taking two snapshots a moment apart: equal and idle, nothing happened in between.
    public var workSnapshot: StoreWorkSnapshot {
        engine.workSnapshot()
    }

    // MARK: - Shutdown

    /// Whether ``shutdown(_:deadline:gracePeriod:)`` has been called (it may still be under way):
    /// from then on the store refuses items dispatched from outside. For a service's health check,
    /// which should report "going away" rather than "ready".
    public var isShuttingDown: Bool {
        // The intake changes in the same look at the inbox that records where the shutdown's
        // count of handled items starts, so what is dispatched once this is true is counted.
        engine.inbox.withLock { $0.intake } != .open
    }

    /// Ends the store's working life and returns, once it is idle, what the shutdown did.
    ///
    /// From the call on, an item dispatched from outside the store is rejected with
    /// ``KatanaError/storeShutDown(item:)``. Then, as `mode` says:
    /// - ``ShutdownMode/finishWork``: the items already dispatched are handled and running side
    ///   effects finish, together with the items that work dispatches itself (through its context,
    ///   the interceptors and observer rules, or the dependencies). When `deadline` passes first,
    ///   what is left is cancelled as with `cancelWork`.
    /// - ``ShutdownMode/cancelWork``: the items still waiting are not handled (their promises are
    ///   rejected with ``KatanaError/cancelledByShutdown(item:)``) and running async side effects
    ///   are cancelled, at once. A synchronous side effect that is running cannot be stopped.
    ///
    /// After a cancellation, the shutdown waits at most `gracePeriod` for the cancelled work to
    /// stop; what still runs then is counted in ``ShutdownReport/stillRunning``. When it returns,
    /// every `stateUpdates` sequence has finished, listeners are no longer called, and the store
    /// takes no items any more. Negative durations count as zero.
    ///
    /// Calling it again, from anywhere, waits for the same shutdown and returns its report. Call it
    /// from outside the store's own work: a side effect of this store that awaits it is itself work
    /// that has not finished, so the shutdown would wait for its deadline.
    @discardableResult
    public func shutdown(
        _ mode: ShutdownMode = .finishWork,
        deadline: Duration = .seconds(10),
        gracePeriod: Duration = .seconds(1)
    ) async -> ShutdownReport {
        await engine.shutDown(mode, deadline: deadline, gracePeriod: gracePeriod)
    }

    /// Runs until the store has been shut down, and returns the shutdown's report: the method a
    /// service's `run()` awaits, so the store is one of the service's parts.
    ///
    /// Cancelling the task that awaits it shuts the store down with ``ShutdownMode/cancelWork``.
    @discardableResult
    public func runUntilShutdown() async -> ShutdownReport {
        let engine = self.engine
        return await withTaskCancellationHandler {
            await engine.reportWhenShutDown()
        } onCancel: {
            Task { await engine.shutDown(.cancelWork, deadline: .zero, gracePeriod: .seconds(1)) }
        }
    }
}

// MARK: - Waiting for the store to go quiet (for KatanaTesting)

extension PartialStore {
    /// Waits until `isQuiet` returns true, asking it again each time a part of the store runs out
    /// of work (and after each ``pokeActivity()``), until `deadline`; false when the deadline
    /// passes first. For tools that wait for the store to settle without polling it.
    package func waitUntilQuiet(until deadline: ContinuousClock.Instant, _ isQuiet: () -> Bool) async -> Bool {
        await engine.activity.wait(until: deadline, returningOnCancellation: false, for: isQuiet) == .quiet
    }

    /// Wakes the tasks in ``waitUntilQuiet(until:_:)`` to look again: for work outside the store
    /// that such a task also waits for (a test clock's tasks), when it changes.
    package func pokeActivity() {
        engine.activity.pokeIfWatched()
    }
}
