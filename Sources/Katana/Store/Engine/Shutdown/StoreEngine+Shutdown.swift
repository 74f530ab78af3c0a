import Dispatch

extension StoreEngine {
    // MARK: - Shutdown

    /// Shuts the store down (see `PartialStore.shutdown(_:deadline:gracePeriod:)`): the first call
    /// carries it out, later ones wait for its report.
    func shutDown(_ mode: ShutdownMode, deadline: Duration, gracePeriod: Duration) async -> ShutdownReport {
        switch shutdownProgress.withLock({ $0.begin() }) {
        case .finished(let report):
            return report
        case .wait:
            return await reportWhenShutDown()
        case .carryOut:
            break
        }
        let clock = ContinuousClock()
        let cancelAt = clock.now + max(deadline, .zero)
        let takenBefore = inbox.withLock { inbox in
            inbox.beginShutdown(takingStoreWork: mode == .finishWork)
            return inbox.takenCount
        }
        var cancelled = 0
        var giveUpAt: ContinuousClock.Instant?
        if mode == .cancelWork {
            cancelled += cancelRemainingWork()
            giveUpAt = clock.now + max(gracePeriod, .zero)
        }
        while !closesIntakeIfIdle() {
            let now = clock.now
            if let giveUpAt {
                if now >= giveUpAt { break }
            } else if now >= cancelAt || Task.isCancelled {
                // The deadline passed, or whoever waits for the shutdown gave up waiting.
                cancelled += cancelRemainingWork()
                giveUpAt = now + max(gracePeriod, .zero)
                continue
            }
            // Polled, not signalled: only a store that shuts down pays for it.
            await Self.pause(for: .milliseconds(1))
        }
        // After the grace period, what some stray work dispatched is not handled (when the store
        // went idle, its intake was closed at that moment and nothing is waiting).
        let late = inbox.withLock { $0.cancelWaiting() }
        for envelope in late {
            envelope.reject(KatanaError.cancelledByShutdown(item: typeName(of: envelope.item)))
        }
        delivery.stop(audienceChanged: setAudience)
        let report = ShutdownReport(
            handled: Int(truncatingIfNeeded: inbox.withLock { $0.takenCount } &- takenBefore),
            cancelled: cancelled + late.count,
            stillRunning: sideEffectPool.withLock { $0 }?.activeCount ?? 0
        )
        for waiter in shutdownProgress.withLock({ $0.finish(with: report) }) {
            waiter.resume(returning: report)
        }
        return report
    }

    /// Sleeps for `duration` even when the calling task is cancelled (a cancelled `Task.sleep`
    /// returns at once, which would turn the shutdown's wait into a busy loop).
    private static func pause(for duration: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let nanoseconds = Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                continuation.resume()
            }
        }
    }

    /// Waits for the end of the store's shutdown (which may not have begun) and returns its report.
    func reportWhenShutDown() async -> ShutdownReport {
        await withCheckedContinuation { continuation in
            if let report = shutdownProgress.withLock({ $0.wait(continuation) }) {
                continuation.resume(returning: report)
            }
        }
    }

    /// Cancels what is left: items waiting in the inbox or for a side-effect worker are not
    /// handled, running async side effects are cancelled. Returns how many.
    private func cancelRemainingWork() -> Int {
        let waiting = inbox.withLock { $0.cancelWaiting() }
        for envelope in waiting {
            envelope.reject(KatanaError.cancelledByShutdown(item: typeName(of: envelope.item)))
        }
        return waiting.count + (sideEffectPool.withLock { $0 }?.cancelForShutdown() ?? 0)
    }

    /// When nothing is waiting, being handled, running or waiting for the listeners, and nothing
    /// arrived since the snapshot that saw it (the other parts only make new work by dispatching),
    /// closes the intake in the same look at the inbox, so that no item is taken afterwards: nothing
    /// can be handled once the shutdown has returned. Returns whether it did.
    private func closesIntakeIfIdle() -> Bool {
        let snapshot = workSnapshot()
        guard snapshot.isIdle, snapshot.runningAsyncSideEffects == 0 else { return false }
        return inbox.withLock { inbox in
            guard inbox.enqueuedCount == snapshot.dispatchedCount, inbox.isIdle else { return false }
            // Idle: nothing is waiting, so nothing is handed back.
            _ = inbox.cancelWaiting()
            return true
        }
    }

    /// What the store is doing now (see `PartialStore.workSnapshot`). The inbox is read first and
    /// last, so that an item dispatched while the other parts are read shows in the count.
    func workSnapshot() -> StoreWorkSnapshot {
        let first = inbox.withLock { ($0.enqueuedCount, $0.isIdle) }
        let pool = sideEffectPool.withLock { $0 }
        let jobsAreIdle = pool?.jobsAreIdle ?? true
        let running = pool?.runningAsyncCount ?? 0
        let deliveryIsIdle = delivery.isIdle
        let last = inbox.withLock { ($0.enqueuedCount, $0.isIdle) }
        return StoreWorkSnapshot(
            dispatchedCount: last.0,
            isIdle: first.1 && last.1 && first.0 == last.0 && jobsAreIdle && deliveryIsIdle,
            runningAsyncSideEffects: running
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
