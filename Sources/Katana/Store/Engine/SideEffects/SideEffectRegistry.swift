/// Every side effect a store has taken and not finished, in the order the store took them, and
/// the demand for the store's side-effect workers: the one place where side effects are started,
/// cancelled (by their promise, by id, by a newer one with the same id, by a shutdown) and
/// counted.
///
/// A plain value, tested without threads (`SideEffectRegistryTests`, and a fuzz test that checks
/// its counts against its slots, `SideEffectRegistryInvariantTests`); ``SideEffectRunner`` keeps
/// one behind a lock that only it takes, and carries out what its methods return once it has let
/// go of the lock.
///
/// Each side effect gets a slot when the store's drainer takes it from the inbox (``add(_:)``),
/// so the slots are in dispatch order, and the slot's phase holds what the side effect has in
/// that phase:
///
///     add ─▶ waiting(job) ─take─▶ onWorker(job, worker) ─end─▶ (free)            synchronous
///     add ─▶ waiting(job) ─take─▶ onWorker(job, worker) ─attach─▶ task(job, handle) ─end─▶ (free)
///                                                                                async: its
///            interceptors and its body up to its first suspension run on the worker
///     waiting ─cancel─▶ (free, never run)
///     onWorker, task ─cancel─▶ the same phase, the job marked cancelled, until its body ends
///
/// A side effect's cancellation is recorded once, on its job (``RegisteredSideEffect/cancellation``),
/// where its task reads it as it starts. The counts of side effects per phase and the workers'
/// demand (``WorkerDemand``) are kept as the phases change.
///
/// An item dispatched before a cancellation by id may be between the inbox and this registry
/// when the cancellation comes (the drainer has taken it with others and not reached it yet): the
/// cancellation then leaves a *cut* here, which ``add(_:)`` applies to it; a cut lasts until the
/// drainer has passed the items it was made for (see ``Cut``).
struct SideEffectRegistry<Entry: RegisteredSideEffect> {
    /// Why a side effect was cancelled: what its end reports, and which error its promise gets.
    typealias Cancellation = SideEffectEnd.Canceller

    /// Where a side effect is, with what it has there.
    enum Phase {
        /// The slot holds no side effect.
        case free
        /// Taken by the store, waiting for one of the store's workers.
        case waiting(Entry)
        /// A worker runs it: a synchronous side effect's interceptors and body, or an async one's
        /// interceptors and body until its task's handle reaches the registry.
        case onWorker(Entry, Worker)
        /// Its task has been started and its handle has arrived (it runs, or is suspended).
        case task(Entry, Task<Void, Never>)
    }

    /// The worker a side effect is on. Small, as it moves with the phase.
    struct Worker {
        /// Its thread, as the thread probe names it (0 when it cannot).
        var thread: Int32
        /// The monitor's tick when the worker took it.
        var takenAtTick: UInt32
        /// The tick at which the monitor last saw its thread asleep, if it did (0: never): a
        /// thread asleep at one look only may have been waiting a moment for a lock.
        var seenAsleepAtTick: UInt32 = 0
        /// Whether it is blocked (and so no longer counts against the width), and why.
        var block = Block.none

        /// Why a job on its worker is blocked.
        enum Block: UInt8 {
            /// It is not.
            case none
            /// The monitor saw its thread asleep at two looks in a row.
            case seenAsleep
            /// Its thread announced a wait (which ends when it wakes).
            case announced
            /// It stayed long on its worker where the probe cannot tell whether its thread sleeps.
            case assumed
        }

        /// Whether it no longer counts against the width.
        var isBlocked: Bool { block != .none }
    }

    /// One side effect's place.
    struct Slot {
        /// Tells a token for a side effect gone from one for the side effect that reuses the slot.
        var generation: UInt32 = 0
        var phase = Phase.free
        /// Whether a shutdown leaves it out of its handled and cancelled counts: it was cancelled
        /// (its promise rejected) before the shutdown began, so it was over for its caller.
        var isOutsideShutdown = false
    }

    /// What names one slot's side effect from outside: handed out by ``add(_:)`` and ``take(onThread:)``.
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
        /// The new slot, or nil when the side effect is not to run: a cut or a shutdown cancelled
        /// it (its promise is to be rejected with ``refusal``'s error).
        let token: Token?
        /// Why it was refused, when it was.
        let refusal: Cancellation?
        /// Older side effects with the same id that this one cancels ("latest wins").
        let cancelling: [Stop]
        /// Whether to ask for a worker of the store's: a job is waiting and none is free.
        let startsWorker: Bool
        /// Whether to start the monitor: jobs wait at the width limit.
        var startsMonitor = false
    }

    /// What a worker gets from ``take(onThread:)``.
    struct Taken {
        let token: Token
        let entry: Entry
        /// Whether to ask for another worker: jobs are still waiting and no other worker is free.
        let startsWorker: Bool
        /// Whether to start the monitor: jobs wait at the width limit.
        var startsMonitor = false
    }

    /// What a tick of the monitor asks for.
    struct Tick: Equatable {
        /// How many workers to start: jobs wait, and blocked ones have freed places.
        let startsWorkers: Int
        /// Whether to tick again: jobs still wait at the width limit.
        let keepsTicking: Bool
        /// Whether this tick saw a job's thread asleep for the first time: the next look comes
        /// soon, to tell a blocked job from one that waited a moment for a lock.
        var looksAgainSoon = false
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

    /// How many side effects are in each phase.
    struct PhaseCounts: Equatable {
        var waiting = 0
        var onWorker = 0
        var task = 0
    }

    // The stored properties below are internal rather than private only so that the registry's
    // extensions in the files next to this one reach them; outside the registry only its runner
    // holds one, privately.

    /// The side effects, indexed by ``Token/slot``.
    var slots: [Slot] = []
    var freeSlots: [Int] = []
    /// The jobs taken onto workers, which the monitor and announced waits look through.
    var taken = TakenList<Token>()
    /// Waiting side effects, oldest first, from `nextWaiting` on; one cancelled while it waited
    /// leaves its token behind, which ``take(onThread:)`` skips.
    var waitingQueue: [Token] = []
    var nextWaiting = 0
    var cuts: [Cut] = []
    var shutdown = ShutdownPhase.none
    /// What the shutdown under way has counted so far.
    var shutdownCounts = ShutdownCounts()
    /// Side effects per phase, kept as they move.
    var phases = PhaseCounts()
    /// The workers the store has and wants.
    var demand: WorkerDemand
    /// The monitor's ticks so far (from 1; they wrap around, and are only ever subtracted).
    var tick: UInt32 = 1
    /// Tasks that have ended and whose promise is settling (see ``endTask(_:)``).
    var settlingTasks = 0
    /// A side effect a worker finished with, held for the thread that adds the next one (see
    /// ``hold(forTheNextAdd:)``).
    var heldForTheNextAdd: Entry?

    /// A registry whose workers run at most `width` jobs that are not blocked (at least one).
    init(width: Int = WorkerDemand.defaultWidth) {
        demand = WorkerDemand(width: width)
    }

    /// How many side effects the store has taken and not finished.
    var count: Int {
        phases.waiting + phases.onWorker + phases.task
    }

    /// Whether no side effect is waiting or on a worker, no worker holds one, and no ended task's
    /// promise is settling (async ones may still be running as tasks): every promise of a side
    /// effect that ran is settled, or belongs to a running task.
    var isIdleOnWorkers: Bool {
        phases.waiting == 0 && phases.onWorker == 0 && demand.busy == 0 && settlingTasks == 0
    }

    /// Whether nothing runs at all: ``isIdleOnWorkers``, and no task either.
    var isIdle: Bool {
        isIdleOnWorkers && phases.task == 0
    }

    /// Whether a new side effect is taken as it is: no cut waits for one on its way, and no
    /// shutdown cancels new ones.
    var takesNewOnesAsTheyAre: Bool {
        cuts.isEmpty && (shutdown == .none || shutdown == .counting)
    }

    /// Above this many slots, an emptied waiting queue is freed instead of kept for reuse.
    static var retainedQueueCapacity: Int { 1024 }
    /// How many taken tokens may pile up at the front of the waiting queue before they are dropped.
    static var compactionThreshold: Int { 256 }
}
