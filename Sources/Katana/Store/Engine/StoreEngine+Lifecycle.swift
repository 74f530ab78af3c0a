extension StoreEngine {
    // MARK: - Start-up

    /// Runs the start-up sequence: the state initializer and then the interceptors on `executor`,
    /// then readiness, after which the items dispatched meanwhile are handled in order. With
    /// `callsListenersWhenReady` (Katana 3.x), the listeners' call with the initial state is queued
    /// as soon as the state exists, so it comes before the changes of every item.
    func start(
        stateInitializer: @escaping @Sendable () -> S,
        interceptors: Interceptors,
        context: any AnySideEffectContext,
        executor: any Executor,
        callsListenersWhenReady: Bool = false
    ) {
        executor.executeAsync {
            let initial = stateInitializer()
            let cell = StateCell.make(initial)
            self.published.withLock { $0 = cell }
            if callsListenersWhenReady {
                // Katana 3.x's order: queued once the state exists, before the interceptors start.
                self.delivery.publishReadyCall(with: initial, owner: { self.owner })
            }
            // Interceptors may dispatch while they are initialised (their items wait for
            // readiness), and a wait there could never succeed: mark the thread, so it fails at once.
            let previous = StoreQueueMarker.mark(self)
            let drainer = self.makeDrainer(cell: cell, interceptors: interceptors, context: context)
            StoreQueueMarker.restore(previous)
            let (action, heldStore) = self.inbox.withLock { inbox in
                (inbox.becomeReady(with: drainer), inbox.releaseOwnerIfIdle())
            }
            switch action {
            case .none, .release:
                // A drainer released here (the store went away while it started) goes with it.
                break
            case .scheduleDrain:
                self.updaterQueue.async { self.drainOnQueue() }
            }
            // Items that waited for readiness and were all cancelled meanwhile held the store.
            withExtendedLifetime(heldStore) {}
        }
    }

    private func makeDrainer(cell: StateCell<S>, interceptors: Interceptors, context: any AnySideEffectContext) -> Drainer<S> {
        // An item passed on outside any run of the chain, or passed on in place of a side effect
        // when it is not one, is handled in turn through the inbox. Weak: an interceptor may call
        // `next` long after the store is gone.
        let handOff: @Sendable (Envelope) -> Void = { [weak self] envelope in
            guard let self else {
                envelope.rejectStoreGone()
                return
            }
            self.enqueue(envelope)
        }
        // Unretained: the drainer lives inside this engine's inbox, and runs only while the engine
        // drains; what its runs of the chain pass on is handled here, with the drainer.
        let engine = Unsafe.unretained(self)
        let drainerSlot = DrainerSlot<S>()
        let chain = interceptors.isEmpty ? nil : InterceptorChain(
            interceptors,
            context: context,
            carriesContext: capturesContext,
            drainerHandle: { item, promise, sequence in
                drainerSlot.withDrainer { drainer in
                    Unsafe.borrow(engine) { $0.handlePassedOn(item, promise: promise, sequence: sequence, with: drainer) }
                }
            },
            late: handOff
        )
        let runner = SideEffectRunner(
            tracer: tracer,
            chain: chain,
            classify: { item in ItemKind.classify(item, storeState: S.self, context: context) },
            handOff: handOff,
            taskStarter: asyncSideEffectTaskStarter,
            activity: activity,
            ends: sideEffectEnds,
            threads: workerThreads,
            probe: threadProbe,
            dispatchContext: dispatchContext
        )
        sideEffects.withLock { $0 = runner }
        let drainer = Drainer(
            cell: cell, context: context, sideEffects: runner, shutdown: shutdownSignal, chain: chain,
            releasesMemoryAfterBursts: releasesMemoryAfterBursts
        )
        drainerSlot.fill(with: drainer)
        return drainer
    }

    /// Whether start-up has finished and items are being handled.
    var isReady: Bool {
        inbox.withLock { $0.isReady }
    }

    // MARK: - State

    /// A copy of the current state.
    ///
    /// Reading it before the store is ready, or from inside one of the store's own state updaters,
    /// is a programming error that stops the process with a message naming the fix.
    func readState() -> S {
        guard let cell = published.withLock({ $0 }) else {
            StorePrecondition.stateReadBeforeReady()
        }
        return cell.read()
    }

    // MARK: - Listeners

    /// Adds a listener called with `(old, new)` after every handled state updater. With
    /// `isWaitedFor`, updater promises settle only after it has been called (Katana's order);
    /// `onStop` runs when the store is released.
    func addListener(
        _ call: @escaping @Sendable (S, S) -> Void,
        isWaitedFor: Bool = true,
        onStop: (@Sendable () -> Void)? = nil
    ) -> StoreUnsubscribe {
        let id = delivery.add(call, isWaitedFor: isWaitedFor, onStop: onStop, audienceChanged: setAudience)
        return { [weak self] in
            guard let self else { return }
            self.delivery.remove(id, audienceChanged: self.setAudience)
        }
    }

    /// Tells the inbox who listens (called under the delivery's lock: delivery, then inbox).
    func setAudience(_ audience: Audience) {
        inbox.withLock { $0.audience = audience }
    }

    // MARK: - Release

    /// Called when the store is released: rejects every item still waiting, ends the state
    /// sequences, and lets go of the interceptors (now, or when the thread draining finishes), so
    /// nothing leaks and no promise hangs.
    func storeReleased() {
        let stop = inbox.withLock { $0.stop() }
        for envelope in stop.rejected {
            envelope.rejectStoreGone()
        }
        delivery.stop(audienceChanged: setAudience)
        // `stop.released`, the drainer if nobody held it, is let go here with the interceptors.
    }
}

/// Where the chain's drainer pass finds the drainer, which is made after the chain.
///
/// Written once, before the drainer is handed to the inbox (whose lock publishes it to whichever
/// thread drains); read only by the thread draining.
private final class DrainerSlot<S: State>: @unchecked Sendable {
    // @unchecked: `drainer` is set once before any thread can drain, and only read afterwards.
    /// Unretained: the engine's inbox holds the drainer.
    private var drainer: Unmanaged<Drainer<S>>?

    func fill(with drainer: Drainer<S>) {
        self.drainer = Unsafe.unretained(drainer)
    }

    /// Calls `body` with the drainer, which the thread draining holds meanwhile.
    @inline(__always)
    func withDrainer<Result>(_ body: (Drainer<S>) -> Result) -> Result {
        // Filled before the drainer could run a pass that calls this.
        Unsafe.borrow(drainer.unsafelyUnwrapped, body)
    }
}
