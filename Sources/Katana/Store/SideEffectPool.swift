import Dispatch

/// Runs a store's synchronous side effects concurrently on a global dispatch queue, without a
/// queue submission for each one.
///
/// Side effects wait in a list; workers (blocks on the global queue) take them one at a time. A new
/// worker is started only when a side effect is waiting and no worker is free to take it: every
/// worker is inside a side effect's body, or there is none. So a side effect that blocks never holds
/// up the others (each waiting one gets a worker of its own if need be), while a burst of short
/// side effects is run by a few workers instead of costing one queue submission (and often a thread
/// wake-up) per side effect.
final class SideEffectPool: @unchecked Sendable {
    // @unchecked: `state` is only reached through its lock; everything else is a constant.

    /// What a worker runs.
    private enum Job {
        /// A side effect, and the promise to settle with its outcome.
        case run(item: any Dispatchable, runner: ItemKind.SideEffectRunner, promise: PromiseHandle?)
        /// The start of an async side effect, which settles its promise itself and is traced as it runs.
        case start(@Sendable () async -> Void)
    }

    private struct State {
        /// Jobs not taken yet start at `nextJob`.
        var jobs: [Job] = []
        var nextJob = 0
        /// Workers between two side effects, about to look for the next job.
        var freeWorkers = 0

        var hasWaitingJob: Bool {
            nextJob < jobs.count
        }
    }

    private let state = Locked(State())
    private let context: any AnySideEffectContext
    private let tracer: SignpostLogger?
    private let queue = DispatchQueue.global()

    /// Above this many slots, an emptied job list is freed instead of kept for reuse.
    private static var retainedCapacity: Int { 1024 }
    /// How many taken jobs may pile up at the front of the list before they are dropped.
    private static var compactionThreshold: Int { 256 }

    init(context: any AnySideEffectContext, tracer: SignpostLogger?) {
        self.context = context
        self.tracer = tracer
    }

    /// Runs `runner` on `item` soon, concurrently with other side effects, and settles `promise`
    /// with what it returns or throws.
    func submit(_ item: any Dispatchable, runner: @escaping ItemKind.SideEffectRunner, settling promise: PromiseHandle?) {
        add(.run(item: item, runner: runner, promise: promise))
    }

    /// Starts an async side effect from a worker, as a task that runs there until it first
    /// suspends (see `startTask`): a short one finishes without a hop to another executor.
    func submitStart(_ operation: @escaping @Sendable () async -> Void) {
        add(.start(operation))
    }

    /// Puts `job` in the list, and starts a worker for it when none is free.
    private func add(_ job: Job) {
        let startsWorker: Bool = state.withLock { state in
            state.jobs.append(job)
            guard state.freeWorkers == 0 else { return false }
            state.freeWorkers += 1
            return true
        }
        if startsWorker {
            startWorker()
        }
    }

    private func startWorker() {
        queue.async { self.work() }
    }

    /// A worker: takes jobs until none is waiting.
    private func work() {
        var taken = state.withLock { take(&$0) }
        while let job = taken.job {
            if taken.startsWorker {
                startWorker()
            }
            run(job)
            taken = state.withLock { state in
                state.freeWorkers += 1
                return take(&state)
            }
        }
    }

    /// Called under the lock by a free worker: the next job (and the worker is no longer free), or
    /// nil when none is waiting (and the worker stops). When jobs are still waiting after this one
    /// and no other worker is free, `startsWorker` asks for another worker for them.
    private func take(_ state: inout State) -> (job: Job?, startsWorker: Bool) {
        state.freeWorkers -= 1
        guard state.hasWaitingJob else {
            if state.jobs.capacity > Self.retainedCapacity {
                state.jobs = []
            } else {
                state.jobs.removeAll(keepingCapacity: true)
            }
            state.nextJob = 0
            return (nil, false)
        }
        let job = state.jobs[state.nextJob]
        state.nextJob += 1
        if state.nextJob >= Self.compactionThreshold, state.nextJob * 2 >= state.jobs.count {
            // A steady stream never empties the list: drop the taken jobs (and what they hold).
            state.jobs.removeFirst(state.nextJob)
            state.nextJob = 0
        }
        guard state.hasWaitingJob, state.freeWorkers == 0 else { return (job, false) }
        state.freeWorkers += 1
        return (job, true)
    }

    private func run(_ job: Job) {
        switch job {
        case .start(let operation):
            startTask(operation)
        case .run(let item, let runner, let promise):
            let context = self.context
            let outcome: Result<any Sendable, any Error> = SignpostLogger.trace(tracer, item, kind: .sideEffect) {
                do {
                    return .success(try runner(item, context))
                } catch {
                    return .failure(error)
                }
            }
            promise?.settle(erased: outcome, replacing: item)
        }
    }
}

/// Runs `operation` as a task that starts right away on the calling thread and leaves it at its
/// first suspension, where the platform has `Task.immediate`; as an ordinary task elsewhere.
private func startTask(_ operation: @escaping @Sendable () async -> Void) {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
        Task.immediate { await operation() }
    } else {
        Task { await operation() }
    }
}
