import Dispatch

extension SideEffectRunner {
    // MARK: - Workers

    /// Asks the worker threads for one more of this store's workers.
    func startWorker() {
        threads.run { self.work() }
    }

    /// One of the store's workers: takes side effects until none waits.
    private func work() {
        let thread = Self.workerID(probe.currentThread())
        var taken = registry.withLock { registry in
            registry.workerBegins()
            return registry.take(onThread: thread)
        }
        let loop = WorkerLoop(runner: self, thread: thread)
        let previous = Self.workerLoop.replace(with: loop)
        defer { Self.workerLoop.restore(previous) }
        while let job = taken {
            askForHelp(worker: job.startsWorker, monitor: job.startsMonitor)
            if job.entry.startsTaskWhenTaken, taskStarter == nil {
                taken = startTaskHere(job.entry, token: job.token, on: loop)
            } else {
                taken = run(job.entry, token: job.token, on: loop)
            }
            activity.pokeIfWatched()
        }
        // Going idle after leaving a job for the next add: what is still held is let go of here.
        if loop.leftAJob {
            _ = registry.withLock { $0.takeHeld() }
        }
    }

    /// Starts the worker or the monitor that an add or a take asked for.
    @inline(__always)
    func askForHelp(worker: Bool, monitor: Bool) {
        if worker {
            startWorker()
        }
        if monitor {
            monitorTick(after: .zero)
        }
    }

    // MARK: - The monitor

    /// How often the monitor ticks while jobs wait at the width limit (see ``WorkerDemand``).
    static var monitorInterval: Duration { .microseconds(500) }
    /// How soon it looks again after it first saw a job's thread asleep.
    static var secondLookInterval: Duration { .microseconds(200) }

    /// Ticks the registry's monitor after `delay` (at once when it starts: side effects already
    /// blocked let the waiting one start without waiting for a tick), then every
    /// ``monitorInterval`` for as long as jobs wait at the limit. The probe reads the threads'
    /// states outside the registry's lock.
    func monitorTick(after delay: Duration) {
        let tick: @Sendable () -> Void = {
            let candidates = self.registry.withLock { $0.monitorCandidates() }
            let findings = candidates.map { ($0, self.probe.isAsleep($0.thread)) }
            let tick = self.registry.withLock { $0.monitorTicked(findings) }
            for _ in 0 ..< tick.startsWorkers {
                self.startWorker()
            }
            if tick.keepsTicking {
                self.monitorTick(after: tick.looksAgainSoon ? Self.secondLookInterval : Self.monitorInterval)
            }
        }
        if delay == .zero {
            DispatchQueue.global().async(execute: tick)
        } else {
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval, execute: tick)
        }
    }

    /// The id a worker's jobs carry in the registry: its thread's id as the probe gives it, or,
    /// where the probe has none, a negative number of the worker's own (which the probe knows
    /// nothing about), so that an announced wait still finds its job.
    static func workerID(_ thread: Int32) -> Int32 {
        thread != 0 ? thread : -Int32(truncatingIfNeeded: nextAnonymousWorker.add(1) % UInt64(Int32.max))
    }

    /// Counts the workers whose thread the probe cannot name.
    private static let nextAnonymousWorker = AtomicWord()

    // MARK: - Announced waits

    /// The job on the worker `worker`, which runs this code, is about to block in the package's
    /// `wait`: it stops counting against the width, and the jobs waiting behind it get workers at once.
    func waitBegan(onWorker worker: Int32) {
        let starts = registry.withLock { $0.waitBegan(onWorker: worker) }
        for _ in 0 ..< starts {
            startWorker()
        }
    }

    /// The job's wait ended: it counts again.
    func waitEnded(onWorker worker: Int32) {
        registry.withLock { $0.waitEnded(onWorker: worker) }
    }

    /// What the worker loop on this thread is doing, seen by the code it runs through a
    /// thread-local slot: the runner and the worker's id (so that a blocking wait is announced
    /// for the job it runs), and, for a task the worker is starting, the hand-off between that
    /// task and the worker (see ``startTaskHere(_:token:on:)``). Only the worker's thread touches it.
    final class WorkerLoop {
        /// The runner whose worker this is.
        let runner: SideEffectRunner
        /// The worker's id in the registry (see ``SideEffectRunner/workerID(_:)``).
        let thread: Int32
        /// The job whose task the worker is starting, or the one that task went on to; nil
        /// between starts.
        var job: Job?
        /// Whether that task ended during the start, and the next job it took for the worker.
        var ended = false
        var next: Registry.Taken?
        /// Whether the worker left a job it ran for the next add (see
        /// ``SideEffectRegistry/hold(forTheNextAdd:)``) since it began.
        var leftAJob = false

        init(runner: SideEffectRunner, thread: Int32) {
            self.runner = runner
            self.thread = thread
        }
    }

    /// Each worker thread's loop while it takes jobs.
    static let workerLoop = ThreadLocal<WorkerLoop>(.workerLoop)
}
