extension StoreEngine {
    // MARK: - Shutdown

    /// Shuts the store down (see `PartialStore.shutdown(_:deadline:gracePeriod:)`): the first call
    /// carries it out, later ones wait for its report.
    ///
    ///     begin       the drainer and the side effects count from now on; the intake takes only
    ///                 the store's own work (finishWork) or nothing (cancelWork, then cancel)
    ///     finish      wait until the store is quiet, or the deadline; then cancel what is left:
    ///                 waiting items, the rest of the drainer's batch, side effects not begun,
    ///                 async ones running
    ///     grace       wait until the store is quiet, or the grace period ends
    ///     close       close the intake; wait for an updater still being applied (it cannot be
    ///                 interrupted); reject the promises of side effects still running
    ///     report      what the drainer and the side effects counted, and what was still running
    func shutDown(_ mode: ShutdownMode, deadline: Duration, gracePeriod: Duration) async -> ShutdownReport {
        switch shutdownProgress.withLock({ $0.begin() }) {
        case .finished(let report):
            return report
        case .wait:
            return await reportWhenShutDown()
        case .carryOut:
            break
        }
        let cancelAt = ContinuousClock.now + max(deadline, .zero)
        // Counting starts before the intake changes: an item handled from this moment on counts.
        shutdownSignal.advance(to: .counting)
        sideEffects.withLock { $0 }?.beginShutdown()
        inbox.withLock { $0.beginShutdown(takingStoreWork: mode == .finishWork) }
        var cancelled = 0
        if mode == .finishWork {
            if await activity.wait(until: cancelAt, returningOnCancellation: true, for: isQuiet) != .quiet {
                // The deadline passed, or whoever waits for the shutdown gave up waiting.
                cancelled += cancelRemainingWork()
            }
        } else {
            cancelled += cancelRemainingWork()
        }
        let giveUpAt = ContinuousClock.now + max(gracePeriod, .zero)
        _ = await activity.wait(until: giveUpAt, returningOnCancellation: false, for: isQuiet)
        cancelled += await closeIntake()
        let drained = inbox.withLock { $0.restingDrainer.map { Self.countsOf($0) } } ?? DrainerShutdownCounts()
        let sideEffectCounts = sideEffects.withLock { $0 }?.giveUp() ?? .init()
        delivery.stop(audienceChanged: setAudience)
        let report = ShutdownReport(
            handled: drained.handled + sideEffectCounts.handled,
            cancelled: cancelled + drained.cancelled + sideEffectCounts.cancelled,
            stillRunning: sideEffectCounts.stillRunning
        )
        for waiter in shutdownProgress.withLock({ $0.finish(with: report) }) {
            waiter.resume(returning: report)
        }
        return report
    }

    /// Waits for the end of the store's shutdown (which may not have begun) and returns its report.
    func reportWhenShutDown() async -> ShutdownReport {
        await withCheckedContinuation { continuation in
            if let report = shutdownProgress.withLock({ $0.wait(continuation) }) {
                continuation.resume(returning: report)
            }
        }
    }

    /// Cancels what is left: the drainer rejects the items of its batch it has not begun, the
    /// items waiting in the inbox are not handled, side effects not begun never run and async
    /// ones are cancelled. Returns how many waiting items it rejected (the drainer and the side
    /// effects count their own).
    private func cancelRemainingWork() -> Int {
        shutdownSignal.advance(to: .cancelling)
        let waiting = inbox.withLock { $0.cancelWaiting() }
        for envelope in waiting {
            envelope.reject(KatanaError.cancelledByShutdown(item: typeName(of: envelope.item)))
        }
        sideEffects.withLock { $0 }?.cancelForShutdown()
        return waiting.count
    }

    /// Closes the intake once nothing is waiting or being handled (when the store is quiet, in the
    /// same look at the inbox, so that nothing is taken afterwards; otherwise, after the grace
    /// period, by refusing everything and cancelling what arrived). Then waits for the drainer to
    /// give its right back: it rejects the rest of its batch at once, but an updater being
    /// applied cannot be interrupted, and nothing may be applied once the shutdown has returned.
    /// Returns how many late items it rejected.
    private func closeIntake() async -> Int {
        var late: [Envelope] = []
        let closedQuietly = quietCount().map { seen in inbox.withLock { $0.closeIntakeIfIdle(seen: seen) } } ?? false
        if !closedQuietly {
            shutdownSignal.advance(to: .cancelling)
            late = inbox.withLock { $0.cancelWaiting() }
            for envelope in late {
                envelope.reject(KatanaError.cancelledByShutdown(item: typeName(of: envelope.item)))
            }
        }
        while await activity.wait(until: .now + .seconds(3600), returningOnCancellation: false, for: { !inbox.withLock { $0.isDraining } }) != .quiet {
            // An updater that runs for more than an hour: keep waiting, it cannot be interrupted.
        }
        return late.count
    }

    /// Whether nothing is waiting or being handled, no side effect is running, no listener call
    /// is pending, and no outside work is under way.
    private func isQuiet() -> Bool {
        quietCount() != nil
    }

    /// The inbox's count of dispatched items when the store is quiet (see ``isQuiet()``), read
    /// before and after the other parts, so that nothing arrived while they were read; nil when
    /// it is not quiet.
    private func quietCount() -> UInt64? {
        guard let dispatched = inbox.withLock({ $0.isIdle ? $0.enqueuedCount : nil }),
              sideEffects.withLock({ $0 })?.isIdle ?? true,
              delivery.isIdle
        else { return nil }
        return inbox.withLock { $0.isIdle && $0.enqueuedCount == dispatched } ? dispatched : nil
    }

    /// What the drainer counted (it rests in the inbox: nobody holds it).
    private static func countsOf(_ drainer: AnyObject) -> DrainerShutdownCounts {
        Unsafe.downcast(drainer, to: Drainer<S>.self).shutdownCounts
    }

    /// What the store is doing now (see `PartialStore.workSnapshot`). The inbox is read first and
    /// last, so that an item dispatched while the other parts are read shows in the count.
    func workSnapshot() -> StoreWorkSnapshot {
        let first = inbox.withLock { ($0.enqueuedCount, $0.isIdle) }
        let registry = sideEffects.withLock { $0 }?.workSnapshot ?? (true, 0)
        let deliveryIsIdle = delivery.isIdle
        let last = inbox.withLock { ($0.enqueuedCount, $0.isIdle) }
        return StoreWorkSnapshot(
            dispatchedCount: last.0,
            isIdle: first.1 && last.1 && first.0 == last.0 && registry.0 && deliveryIsIdle,
            runningAsyncSideEffects: registry.1
        )
    }

    /// How much work the store has now (see `PartialStore.load`).
    func load() -> StoreLoad {
        StoreLoad(
            waitingItems: inbox.withLock { $0.waitingCount },
            activeSideEffects: sideEffects.withLock { $0 }?.count ?? 0
        )
    }

    /// Counts work under way outside the store (see `AnySideEffectContext.beginOutsideWork()`).
    func beginOutsideWork() -> StoreWorkToken {
        inbox.withLock { $0.beginOutsideWork() }
        return StoreWorkToken { [weak self] in
            guard let self else { return }
            inbox.withLock { $0.endOutsideWork() }
            activity.pokeIfWatched()
        }
    }
}
