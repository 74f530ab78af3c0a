import Katana

extension TestStore {
    /// Waits until the store and the clock have nothing left to do right now: no item waiting or
    /// being handled, no listener call pending, no synchronous side effect at work, and every task
    /// on the clock's executor suspended or ended — seen twice in a row with nothing dispatched in
    /// between. False when ``timeout`` (real time) passes first.
    ///
    /// It waits on the store's activity signal, not in a loop of pauses: the store pokes it when
    /// one of its parts runs out of work, the clock when it may have become idle (see
    /// `TestClock.onChange`), the recording when the log changes. The store is looked at once
    /// more when the deadline has passed, so a wake-up that overruns it (a starved test process)
    /// or a zero timeout does not report a settled store as unsettled.
    func settle() async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            var quiet: StoreWorkSnapshot?
            let becameQuiet = await store.waitUntilQuiet(until: deadline) {
                quiet = quietSnapshot()
                return quiet != nil
            }
            if becameQuiet, let first = quiet {
                // Work already under way (a task just woken, a dispatch from another thread) gets a
                // chance to show; an equal snapshot then means nothing was dispatched in between.
                await Task.yield()
                if quietSnapshot() == first {
                    return true
                }
            }
            if ContinuousClock.now >= deadline {
                return false
            }
        }
    }

    /// The store's work snapshot when the store, the clock and the log have nothing to do right
    /// now; nil otherwise. Each part is read under its own lock, as ``settle()``'s wait needs: a
    /// part that runs out of work after this read pokes the waiting task.
    private func quietSnapshot() -> StoreWorkSnapshot? {
        let snapshot = store.workSnapshot
        guard snapshot.isIdle, clock.isIdle, !log.withLock({ $0.hasItemInProgress }) else {
            return nil
        }
        return snapshot
    }

    /// What keeps the store busy, for messages.
    func busyDescription() -> String {
        let snapshot = store.workSnapshot
        var parts: [String] = []
        if !snapshot.isIdle {
            parts.append("items are waiting or being handled, or a synchronous side effect is running")
        }
        if snapshot.runningAsyncSideEffects > 0 {
            parts.append("\(Self.counted(snapshot.runningAsyncSideEffects, "async side effect", "async side effects")) running or suspended")
        }
        if !clock.isIdle {
            parts.append("tasks on the test clock's executor are running (one may be blocked, or awaiting something outside the store and the clock)")
        }
        return parts.isEmpty ? "nothing is running now" : parts.joined(separator: "; ")
    }
}
