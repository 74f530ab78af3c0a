import Foundation

/// How many of a store's workers are wanted: the one place that decides whether a side effect
/// waiting for a worker gets another one now. A plain value inside the registry, tested without
/// threads (`WorkerDemandTests`).
///
/// Workers run side effects one at a time. At most ``width`` may run jobs that are not *blocked*
/// (a burst of short side effects then runs on about as many threads as there are cores); a job
/// that blocks (a sleep, a semaphore, synchronous I/O, the package's own `wait`) stops counting,
/// so the jobs behind it get workers. A job becomes blocked in one of two ways, which both end up
/// in ``jobBlocked()``:
/// - its thread announced a blocking wait (`Promise.wait`): at once, on every platform;
/// - the monitor saw it on its worker asleep at two looks in a row (see
///   ``isBlocked(onWorkerFor:asleep:asleepAtTheLookBefore:)``), or, where the operating system
///   cannot tell whether a thread sleeps, saw it on its worker for longer.
struct WorkerDemand: Equatable {
    /// How many workers may run jobs that are not blocked.
    let width: Int
    /// Workers asked for and not begun yet.
    private(set) var starting = 0
    /// Workers between two jobs, about to take the next one.
    private(set) var idle = 0
    /// Workers that hold a job (from its take until they look for the next one).
    private(set) var busy = 0
    /// Jobs on a worker that are not blocked.
    private(set) var running = 0
    /// Jobs on a worker that are blocked.
    private(set) var blocked = 0
    /// Those of the blocked jobs taken for blocked only because they stayed long on their worker
    /// where nothing could tell whether their thread sleeps.
    private(set) var assumed = 0
    /// Whether the monitor is ticking.
    private(set) var isMonitoring = false

    /// Ticks a job must have spent on its worker before the monitor may call it blocked: at least
    /// one tick since it was taken, so that a job taken an instant ago is not judged.
    static let ticksBeforeJudging: UInt32 = 1
    /// Ticks after which a job whose thread's state is unknown counts as blocked: long enough that
    /// short side effects have left their worker (a burst of them then stays within the width),
    /// short enough that one that blocks lets the next start within a few milliseconds.
    static let ticksBeforeAssumingBlocked: UInt32 = 3

    /// Demand for at most `width` unblocked workers (at least one).
    init(width: Int) {
        self.width = max(1, width)
    }

    /// Whether a job taken `ticks` monitor ticks ago, whose thread `asleep` says is asleep (nil:
    /// the system cannot tell), counts as blocked: asleep now and at the look before (a thread
    /// asleep at one look only may have waited a moment for a lock), or of unknown state and on
    /// its worker for ``ticksBeforeAssumingBlocked`` ticks, and one tick more for each
    /// ``width`` jobs ``assumed`` blocked that way.
    func isBlocked(onWorkerFor ticks: UInt32, asleep: Bool?, asleepAtTheLookBefore: Bool) -> Bool {
        switch asleep {
        case true?: ticks >= Self.ticksBeforeJudging && asleepAtTheLookBefore
        case false?: false
        case nil: ticks >= Self.ticksBeforeAssumingBlocked + UInt32(clamping: assumed / width)
        }
    }

    /// Whether one more worker stays within the width.
    var hasRoom: Bool {
        running + starting + idle < width
    }

    // MARK: - Workers

    /// A worker asked for has begun.
    mutating func workerBegins() {
        starting -= 1
        idle += 1
    }

    /// An idle worker took a job, which runs on it.
    @inline(__always)
    mutating func workerTook() {
        idle -= 1
        busy += 1
        running += 1
    }

    /// An idle worker found nothing to take: it ends.
    mutating func workerEnds() {
        idle -= 1
    }

    /// A worker is done with its job and looks for the next one.
    @inline(__always)
    mutating func workerFinished() {
        busy -= 1
        idle += 1
    }

    /// A job left its worker (it ended, its task started elsewhere, it was handed over).
    @inline(__always)
    mutating func jobLeftWorker(wasBlocked: Bool, wasAssumed: Bool = false) {
        if wasBlocked {
            blocked -= 1
            if wasAssumed { assumed -= 1 }
        } else {
            running -= 1
        }
    }

    /// A job on its worker is blocked (the monitor saw it, or its thread announced a wait;
    /// `assumed`: nothing could tell, and it stayed long).
    mutating func jobBlocked(assumed isAssumed: Bool = false) {
        running -= 1
        blocked += 1
        if isAssumed { assumed += 1 }
    }

    /// A job whose thread had announced a wait woke up: it counts again.
    mutating func jobUnblocked() {
        blocked -= 1
        running += 1
    }

    // MARK: - Decisions

    /// Jobs wait (`waiting` of them): whether to ask for a worker (none is free to take them and
    /// the width leaves room), or, at the width limit, to start the monitor (if it is not ticking).
    @inline(__always)
    mutating func jobsWait(_ waiting: Int) -> (startsWorker: Bool, startsMonitor: Bool) {
        guard waiting > 0, idle + starting == 0 else { return (false, false) }
        guard hasRoom else {
            guard !isMonitoring else { return (false, false) }
            isMonitoring = true
            return (false, true)
        }
        starting += 1
        return (true, false)
    }

    /// Workers to start for `waiting` jobs now that some have blocked: as many as the width leaves
    /// room for, up to one per job no worker is on its way to.
    mutating func workersForBlocked(_ waiting: Int) -> Int {
        var starts = 0
        while waiting > starting + idle, hasRoom {
            starting += 1
            starts += 1
        }
        return starts
    }

    /// The monitor ticked, and the jobs it found blocked were counted: the workers to start, and
    /// whether to tick again (jobs still wait for workers the width does not allow).
    mutating func monitorTicked(_ waiting: Int) -> (startsWorkers: Int, keepsTicking: Bool) {
        let starts = workersForBlocked(waiting)
        isMonitoring = waiting > starting + idle
        return (starts, isMonitoring)
    }
}

extension WorkerDemand {
    /// The width on this machine: the cores the process may use, and at least two, so that a
    /// single-core machine still overlaps a side effect with the next one's start.
    static let defaultWidth = max(2, ProcessInfo.processInfo.activeProcessorCount)
}
