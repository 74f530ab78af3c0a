/// The bookkeeping of a side-effect pool, as a plain value (tested without threads in
/// `SideEffectPoolStateTests`): the jobs waiting, and the workers starting, idle or blocked.
///
/// A worker is started only when a job is waiting and no worker is available to take it, so a
/// burst of short side effects is run by a few workers instead of costing a queue submission (and
/// often a thread wake-up) each, while a side effect that blocks never holds up the others.
///
/// Workers normally run on a dispatch queue, which lends them threads. Once one of the pool's
/// workers is blocked (in a `wait`, which announces it), the workers asked of the queue may not get
/// a thread soon (the queue's threads are limited), so they no longer count as available, and new
/// workers get threads of their own.
struct SideEffectPoolState<Job> {
    /// Whether (and where) to start a worker.
    enum WorkerStart: Equatable {
        case none
        /// A worker on the side-effect queue.
        case onQueue
        /// A worker on a thread of its own.
        case onOwnThread
    }

    /// Jobs not taken yet start at `nextJob`.
    private var jobs: [Job] = []
    private var nextJob = 0
    /// Workers asked of the side-effect queue that have not started running.
    private(set) var queueWorkersStarting = 0
    /// Workers on threads of their own that have not started running.
    private(set) var threadWorkersStarting = 0
    /// Running workers between two jobs, about to look for the next one.
    private(set) var idleWorkers = 0
    /// Workers blocked in a `wait` inside a job.
    private(set) var blockedWorkers = 0
    /// Jobs taken by a worker and not finished yet.
    private(set) var runningJobs = 0

    /// Above this many slots, an emptied job list is freed instead of kept for reuse.
    static var retainedCapacity: Int { 1024 }
    /// How many taken jobs may pile up at the front of the list before they are dropped.
    static var compactionThreshold: Int { 256 }

    /// The number of jobs waiting for a worker.
    var waitingCount: Int {
        jobs.count - nextJob
    }

    /// A job arrives; a worker starts for it when none is available.
    mutating func add(_ job: Job) -> WorkerStart {
        jobs.append(job)
        return startWorkerIfNeeded()
    }

    /// A worker starts running (on the queue, or on its own thread).
    mutating func workerBegins(onOwnThread: Bool) {
        if onOwnThread {
            threadWorkersStarting -= 1
        } else {
            queueWorkersStarting -= 1
        }
        idleWorkers += 1
    }

    /// An idle worker looks for its next job; nil means it stops. When jobs are still waiting after
    /// this one and no other worker is available, `start` asks for another worker for them.
    mutating func take() -> (job: Job?, start: WorkerStart) {
        idleWorkers -= 1
        guard waitingCount > 0 else {
            if jobs.capacity > Self.retainedCapacity {
                jobs = []
            } else {
                jobs.removeAll(keepingCapacity: true)
            }
            nextJob = 0
            return (nil, .none)
        }
        let job = jobs[nextJob]
        nextJob += 1
        runningJobs += 1
        if nextJob >= Self.compactionThreshold, nextJob * 2 >= jobs.count {
            // A steady stream never empties the list: drop the taken jobs (and what they hold).
            jobs.removeFirst(nextJob)
            nextJob = 0
        }
        return (job, startWorkerIfNeeded())
    }

    /// A worker finished its job and is idle again.
    mutating func finished() {
        idleWorkers += 1
        runningJobs -= 1
    }

    /// A shutdown cancels what is left: the jobs no worker has taken are handed back (their
    /// promises are to be rejected), and the workers asked for them find nothing to do.
    mutating func takeWaiting() -> [Job] {
        let waiting = Array(jobs[nextJob...])
        jobs.removeAll()
        nextJob = 0
        return waiting
    }

    /// Takes out the waiting jobs that `isTarget` accepts (side effects cancelled by id); no
    /// worker will run them.
    mutating func removeWaiting(where isTarget: (Job) -> Bool) -> [Job] {
        var removed: [Job] = []
        var kept = Array(jobs[..<nextJob])
        for job in jobs[nextJob...] {
            if isTarget(job) {
                removed.append(job)
            } else {
                kept.append(job)
            }
        }
        jobs = kept
        return removed
    }

    /// Whether no job is waiting and none is running.
    var isIdle: Bool {
        waitingCount == 0 && runningJobs == 0
    }

    /// A worker is about to block inside its job: a job waiting without an available worker gets a
    /// worker on a thread of its own.
    mutating func workerWillBlock() -> WorkerStart {
        blockedWorkers += 1
        return startWorkerIfNeeded()
    }

    /// A worker that was blocked goes on with its job.
    mutating func workerDidUnblock() {
        blockedWorkers -= 1
    }

    /// Workers that will take a job without anything else happening first.
    private var availableWorkers: Int {
        idleWorkers + threadWorkersStarting + (blockedWorkers > 0 ? 0 : queueWorkersStarting)
    }

    private mutating func startWorkerIfNeeded() -> WorkerStart {
        guard waitingCount > 0, availableWorkers == 0 else { return .none }
        if blockedWorkers > 0 {
            threadWorkersStarting += 1
            return .onOwnThread
        }
        queueWorkersStarting += 1
        return .onQueue
    }
}
