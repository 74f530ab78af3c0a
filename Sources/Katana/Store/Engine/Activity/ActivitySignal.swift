import Dispatch

/// How tasks wait for a store to go quiet without polling: the parts of the store poke the signal
/// when they run out of work (the inbox, the side effects, the listeners' delivery), and a waiting
/// task looks at the store again after each poke.
///
/// Pokes cost an atomic load when nobody waits: a part checks ``isWatched`` at the moment it runs
/// out of work, which happens once per batch or side effect, never once per item of a batch.
final class ActivitySignal: Sendable {
    /// How a wait ended.
    enum WaitResult: Equatable {
        /// The store was quiet.
        case quiet
        /// The deadline passed first.
        case deadlinePassed
        /// The waiting task was cancelled first.
        case cancelled
    }

    /// How many tasks are waiting; a part that runs out of work pokes only when some are.
    private let watchers = AtomicWord()
    private let waiters = Locked(ActivityWaiters<CheckedContinuation<Void, Never>>())

    /// Whether a task is waiting, so that a part that has just run out of work pokes.
    @inline(__always)
    var isWatched: Bool {
        watchers.load() != 0
    }

    /// Wakes every waiting task, to look at the store again. Called after the change it reports
    /// has been made (and its lock let go).
    func poke() {
        for waiter in waiters.withLock({ $0.poke() }) {
            waiter.resume()
        }
    }

    /// Pokes when a task is waiting.
    @inline(__always)
    func pokeIfWatched() {
        if isWatched {
            poke()
        }
    }

    /// Waits until `isQuiet` says the store is quiet, asking it again after every poke, until
    /// `deadline`. With `returningOnCancellation`, a cancelled task stops waiting (at once, if it
    /// was cancelled before); without, cancellation is ignored.
    ///
    /// `isQuiet` must read every part whose pokes it relies on under that part's lock (or after an
    /// acquiring load), as the store's own checks do: a part that runs out of work after that read
    /// then finds this task counted in ``isWatched``, and pokes.
    func wait(
        until deadline: ContinuousClock.Instant,
        returningOnCancellation: Bool = true,
        for isQuiet: () -> Bool
    ) async -> WaitResult {
        watchers.add(1)
        defer { watchers.subtract(1) }
        while true {
            let seen = waiters.withLock { $0.generation }
            if isQuiet() {
                return .quiet
            }
            if returningOnCancellation, Task.isCancelled {
                return .cancelled
            }
            if ContinuousClock.now >= deadline {
                return .deadlinePassed
            }
            await nextPoke(after: seen, until: deadline, returningOnCancellation: returningOnCancellation)
        }
    }

    /// Suspends until a poke after generation `seen`, the deadline, or (if asked) cancellation.
    private func nextPoke(after seen: UInt64, until deadline: ContinuousClock.Instant, returningOnCancellation: Bool) async {
        let id = waiters.withLock { $0.makeID() }
        // The deadline's timer, cancelled (and let go) as soon as the wait is over, so that waits
        // that end early leave nothing pending behind them. Once cancelled, its handler can no
        // longer run, and what it may have left behind is forgotten.
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {
            self.waiters.withLock { $0.withdraw(id) }?.resume()
        }
        timer.setCancelHandler {
            self.waiters.withLock { $0.forget(id) }
        }
        timer.schedule(deadline: .now() + ContinuousClock.now.duration(to: deadline).dispatchInterval)
        timer.activate()
        defer { timer.cancel() }
        let register = {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                if let now = self.waiters.withLock({ $0.register(waiter, id: id, after: seen) }) {
                    now.resume()
                }
            }
        }
        if returningOnCancellation {
            await withTaskCancellationHandler(operation: register) {
                self.waiters.withLock { $0.withdraw(id) }?.resume()
            }
        } else {
            await register()
        }
    }
}
