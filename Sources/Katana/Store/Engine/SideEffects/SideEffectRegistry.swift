import Foundation

/// Every side effect a store has taken and not finished, in the order the store took them, and
/// the store's side-effect workers: the one place where side effects are started, cancelled (by
/// their promise, by id, by a newer one with the same id, by a shutdown) and counted.
///
/// A plain value, tested without threads (`SideEffectRegistryTests`); ``SideEffectRunner`` keeps
/// one behind a lock, and carries out what its methods return once it has let go of the lock.
///
/// Each side effect gets its entry when the store's drainer takes it from the inbox (``add(_:)``),
/// so the entries are in dispatch order, and whatever happens to a side effect happens to its
/// entry:
///
///     add ─▶ waiting ─take─▶ onWorker ─end─▶ (gone)                     a synchronous side effect
///     add ─▶ waiting ─take─▶ onWorker ─startTask─▶ task ─end─▶ (gone)   an async one, whose
///                                                                      interceptors run first
///     add ─▶ waiting ─take─▶ task ─end─▶ (gone)                         an async one without
///                                                                      interceptors
///     waiting ─cancel─▶ (gone, never run)
///     onWorker, task ─cancel─▶ the same phase, marked cancelled, until its body ends
///
/// Every side effect waits for one of the store's workers: a synchronous body may block, and an
/// async one starts its task there and runs until it first suspends, so a body that blocks before
/// that holds up only a worker, never the store or the thread that dispatched it.
///
/// How many workers: a worker takes jobs until none waits, and another is asked for when a job
/// waits and no worker is free, but only while fewer than ``width`` workers run a job that has not
/// *stalled*: a burst of short side effects runs on about as many threads as the machine has cores,
/// not on one per job waiting. A job stalls when it is still on its worker at a tick of the
/// store's monitor after the one it was taken in, and its worker's thread is asleep (blocked), not
/// running or waiting for a core (the monitor ticks every half millisecond while jobs wait at the limit, see
/// ``monitorTick(isAsleep:)``): a side effect that blocks then no longer holds a place, and the jobs
/// behind it get workers within a few milliseconds; one that computes keeps its place.
///
/// An item dispatched before a cancellation by id may be between the inbox and this registry
/// when the cancellation comes (the drainer has taken it with others and not reached it yet): the
/// cancellation then leaves a *cut* here, which ``add(_:)`` applies to it; a cut lasts until the
/// drainer has passed the items it was made for (see ``Cut``).
struct SideEffectRegistry<Entry: RegisteredSideEffect> {
    /// Where a side effect is.
    enum Phase: UInt8 {
        /// The slot holds no side effect.
        case free
        /// Taken by the store, waiting for one of the store's workers.
        case waiting
        /// A worker runs it: a synchronous side effect's body, or an async one's interceptors up
        /// to the start of its task.
        case onWorker
        /// Its task has been started (it runs, or is suspended).
        case task
    }

    /// Why a side effect was cancelled: what its end reports, and which error its promise gets.
    typealias Cancellation = SideEffectEnd.Canceller

    // The types and stored properties below are internal rather than private only so that the
    // registry's extensions in the files next to this one reach them; nothing else does.

    /// One slot's plain bookkeeping: no references, so the hot checks (is it still there, was it
    /// cancelled, which phase) copy nothing and retain nothing (docs/PERFORMANCE.md, "Cancellation").
    struct SlotState {
        /// Tells a token for a side effect gone from one for the side effect that reuses the slot.
        var generation: UInt32 = 0
        var phase = Phase.free
        var cancellation: Cancellation?
        /// Whether a shutdown leaves it out of its handled and cancelled counts: it was cancelled
        /// (its promise rejected) before the shutdown began, so it was over for its caller.
        var isOutsideShutdown = false
        /// The monitor's tick when a worker took it, and that worker's thread (a kernel id, 0
        /// when unknown).
        var takenAtTick: UInt64 = 0
        var workerThread: Int32 = 0
        /// Whether it has been on its worker so long that it no longer counts against ``width``.
        var isStalled = false
    }

    /// What names one entry from outside: handed out by ``add(_:)`` and ``take()``.
    struct Token: Equatable {
        let slot: Int
        let generation: UInt32
    }

    /// What the canceller does for one side effect it stopped: reject its promise with the
    /// cancellation's error (naming its type) and cancel its task (a nil task is cancelled when
    /// its handle arrives, see ``attach(_:to:)``).
    struct Stop {
        let itemType: any Dispatchable.Type
        let promise: PromiseHandle?
        let task: Task<Void, Never>?
        let reason: Cancellation
    }

    /// A cancellation by id or by promise that may concern items the drainer has taken and not
    /// added yet: those dispatched before `before`. The drainer adds items in dispatch order, so
    /// once it adds one dispatched at `before` or later, the cut has done its work.
    enum Cut {
        case id(SideEffectID, before: UInt64)
        case promise(PromiseHandle, before: UInt64)

        var before: UInt64 {
            switch self {
            case .id(_, let before), .promise(_, let before): before
            }
        }

        /// What the cut reports as the side effect's canceller.
        var canceller: Cancellation {
            switch self {
            case .id: .id
            case .promise: .promise
            }
        }

        func applies(to entry: Entry) -> Bool {
            switch self {
            case .id(let id, let before):
                entry.order < before && entry.identity?.id == id
            case .promise(let promise, let before):
                entry.order < before && entry.promise.map { $0.isSame(as: promise) } == true
            }
        }
    }

    /// What ``add(_:)`` tells the drainer.
    struct Added {
        /// The new entry, or nil when the side effect is not to run: a cut or a shutdown cancelled
        /// it (its promise is to be rejected with ``refusal``'s error).
        let token: Token?
        /// Why it was refused, when it was.
        let refusal: Cancellation?
        /// Older side effects with the same id that this one cancels ("latest wins").
        let cancelling: [Stop]
        /// Whether to ask for a worker of the store's: a job is waiting and none is free.
        let startsWorker: Bool
        /// Whether to start the monitor: jobs wait at the width limit (see ``monitorTick(isAsleep:)``).
        var startsMonitor = false
    }

    /// What a worker gets from ``take()``.
    struct Taken {
        let token: Token
        let entry: Entry
        /// Whether to ask for another worker: jobs are still waiting and no other worker is free.
        let startsWorker: Bool
        /// Whether to start the monitor: jobs wait at the width limit (see ``monitorTick(isAsleep:)``).
        var startsMonitor = false
    }

    /// What a tick of the monitor asks for.
    struct Tick: Equatable {
        /// How many workers to start: jobs wait, and stalled ones have freed places.
        let startsWorkers: Int
        /// Whether to tick again: jobs still wait at the width limit.
        let keepsTicking: Bool
    }

    /// How a shutdown is going, as far as side effects are concerned.
    enum ShutdownPhase {
        /// No shutdown: side effects are not counted.
        case none
        /// Side effects run and are counted as they end.
        case counting
        /// Side effects are cancelled as they come; those running are counted as they end.
        case cancelling
        /// The shutdown has returned: nothing is counted any more, and nothing new runs.
        case over
    }

    /// What a shutdown reports about side effects (see ``ShutdownReport``).
    struct ShutdownCounts: Equatable {
        /// Side effects whose body ended, and was not cancelled, after the shutdown began.
        var handled = 0
        /// Side effects the shutdown (or another cancellation, while it lasted) cancelled and
        /// that are not running any more.
        var cancelled = 0
        /// Side effects still running when the shutdown gave up on them.
        var stillRunning = 0
    }

    /// Each slot's bookkeeping and side effect, side by side, indexed by ``Token/slot``.
    var states: [SlotState] = []
    var entries: [Entry?] = []
    var freeSlots: [Int] = []
    /// Waiting entries, oldest first, from `nextWaiting` on; an entry cancelled while waiting
    /// leaves its token behind, which ``take()`` skips.
    var waitingQueue: [Token] = []
    var nextWaiting = 0
    var cuts: [Cut] = []
    var shutdown = ShutdownPhase.none
    /// What the shutdown under way has counted so far.
    var counts = ShutdownCounts()

    /// How many workers may run jobs that have not stalled.
    let width: Int
    /// The monitor's ticks so far, and whether it is ticking.
    var tick: UInt64 = 0
    var isMonitoring = false
    /// Jobs on a worker that have stalled.
    var stalledCount = 0

    /// A registry whose workers run at most `width` jobs that have not stalled (at least one).
    init(width: Int = SideEffectRegistryDefaults.width) {
        self.width = max(1, width)
    }

    /// Workers asked for and not begun yet.
    var startingWorkers = 0
    /// Workers between two jobs, about to take the next one.
    var idleWorkers = 0
    /// Side effects in each phase.
    var waitingCount = 0
    var onWorkerCount = 0
    var taskCount = 0

    /// How many side effects the store has taken and not finished.
    var count: Int {
        waitingCount + onWorkerCount + taskCount
    }

    /// Workers that hold a job: from ``take()`` until ``finishJobAndTakeNext()``, after its
    /// promise settled or its task started.
    var busyWorkers = 0
    /// Tasks that have ended and whose promise is settling (see ``endTask(_:)``).
    var settlingTasks = 0

    /// Whether no side effect is waiting or on a worker, no worker holds one, and no ended task's
    /// promise is settling (async ones may still be running as tasks): every promise of a side
    /// effect that ran is settled, or belongs to a running task.
    var isIdleOnWorkers: Bool {
        waitingCount == 0 && onWorkerCount == 0 && busyWorkers == 0 && settlingTasks == 0
    }

    /// Whether nothing runs at all: ``isIdleOnWorkers``, and no task either.
    var isIdle: Bool {
        isIdleOnWorkers && taskCount == 0
    }

    /// How many cuts are waiting for the drainer (for tests).
    var cutCount: Int {
        cuts.count
    }

    /// Above this many slots, an emptied waiting queue is freed instead of kept for reuse.
    static var retainedQueueCapacity: Int { 1024 }
    /// How many taken tokens may pile up at the front of the waiting queue before they are dropped.
    static var compactionThreshold: Int { 256 }
}

/// The registry's width on this machine: the cores the process may use, and at least two, so that
/// a single-core machine still overlaps a side effect with the next one's start.
enum SideEffectRegistryDefaults {
    static let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
}

extension SideEffectEnd.Canceller {
    /// The error the cancelled side effect's promise is rejected with.
    func error(for itemType: any Dispatchable.Type) -> KatanaError {
        switch self {
        case .promise, .id, .latestWins: .cancelled(item: typeName(itemType))
        case .shutdown: .cancelledByShutdown(item: typeName(itemType))
        }
    }
}
