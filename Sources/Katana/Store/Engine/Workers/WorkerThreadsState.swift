/// The bookkeeping of a pool of worker threads, as a plain value (tested without threads in
/// `WorkerThreadsStateTests`): which threads are idle, how many run work or are blocked, and the
/// work waiting for a thread. ``WorkerThreads`` keeps one behind its lock; each method is one event,
/// and returns what the pool must do once it has let go of the lock.
///
/// A thread is known to the state by its `Worker` handle (what the pool signals to wake it) only
/// while it waits for work; while it runs work it is just counted.
///
///     submit ─idle thread─▶ handed to the most recently idled one (woken alone)
///     submit ─no idle thread, fewer than `maximumThreads` unblocked─▶ a new thread, with the work
///     submit ─otherwise─▶ queued (first in, first out)
///     a thread finishes its work ─▶ takes the oldest queued work, or becomes idle
///     an idle thread wakes ─▶ runs what was handed to it, or waits again (a signal left over)
///     an idle thread's wait times out ─▶ exits, or runs what was handed to it meanwhile
///     a busy thread announces it will block ─▶ no longer counted: queued work gets a new thread
///
/// Invariant: while work is queued no thread is idle, and the unblocked threads number at least
/// `maximumThreads` (work is queued only then, and an idle thread takes queued work first).
struct WorkerThreadsState<Work, Worker: Hashable> {
    /// What the pool does after work is submitted.
    enum SubmitAction {
        /// The work was queued behind others, or past the cap: a thread finishing its work (or a
        /// new one, once a busy thread blocks) takes it. Nothing to do now.
        case none
        /// The work was handed to this idle thread, the one idled most recently (its caches are
        /// the warmest, and the others can time out): signal that thread alone.
        case wake(Worker)
        /// No thread was idle and the cap leaves room: start a thread that runs this work first.
        case startThread(Work)
    }

    /// What a pool thread does next, after it finished its work, woke or timed out.
    enum NextStep {
        /// Run this work, then report ``WorkerThreadsState/finished(_:)``.
        case run(Work)
        /// Nothing to do: wait (for a signal, at most the idle timeout), then report
        /// ``WorkerThreadsState/woke(_:)`` or ``WorkerThreadsState/timedOut(_:)``.
        case wait
        /// The thread idled for the whole timeout and nobody handed it work: it has been counted
        /// out, and returns (a service that went quiet keeps no threads).
        case exit
    }

    /// What the pool does after a busy thread announced that it will block.
    enum BlockAction {
        /// No work is queued, or the cap still leaves no room: nothing to do.
        case none
        /// The blocked thread no longer holds a slot, so the oldest queued work gets a new thread
        /// (work that the blocked thread waits for may be queued behind it).
        case startThread(Work)
    }

    /// The most threads that may be busy (or idle) without being blocked in an announced wait.
    let maximumThreads: Int
    /// The threads alive: idle, busy (including those handed work and not yet awake) or blocked,
    /// counted from the moment the pool is asked to start them until they exit.
    private(set) var threadCount = 0
    /// Busy threads that announced they are blocked in a wait.
    private(set) var blockedCount = 0
    /// Threads waiting for work, the most recently idled last.
    private var idle: [Worker] = []
    /// Work handed to threads that were idle and have not picked it up yet.
    private var handedOff: [Worker: Work] = [:]
    /// Work waiting for a thread, oldest first from `queueStart`.
    private var queue: [Work] = []
    private var queueStart = 0

    /// How many taken items may pile up at the front of the queue before they are dropped.
    static var compactionThreshold: Int { 256 }

    /// A pool that runs at most `maximumThreads` unblocked threads (at least one).
    init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
    }

    // MARK: - Events

    /// Work arrives: it goes to the most recently idled thread, or to a new thread within the cap,
    /// or to the end of the queue.
    mutating func submit(_ work: Work) -> SubmitAction {
        if let worker = idle.popLast() {
            handedOff[worker] = work
            return .wake(worker)
        }
        // Work is queued only when there is no room (see the invariant): the first test keeps the
        // order should that ever change, so a new thread never overtakes queued work.
        if queuedCount == 0, hasRoom {
            threadCount += 1
            return .startThread(work)
        }
        queue.append(work)
        return .none
    }

    /// `worker`'s thread finished its work (a new thread counts as finishing nothing before it waits).
    mutating func finished(_ worker: Worker) -> NextStep {
        if let work = takeQueued() {
            return .run(work)
        }
        idle.append(worker)
        return .wait
    }

    /// `worker`'s idle thread was signalled.
    mutating func woke(_ worker: Worker) -> NextStep {
        if let work = handedOff.removeValue(forKey: worker) {
            return .run(work)
        }
        // A signal left over from a hand-off that the thread picked up after a timeout: still idle.
        return .wait
    }

    /// `worker`'s idle thread waited for the whole idle timeout without being signalled.
    mutating func timedOut(_ worker: Worker) -> NextStep {
        if let work = handedOff.removeValue(forKey: worker) {
            // Handed work after its wait ended but before it got the lock: it runs that work (the
            // signal on its way is left over, and `woke` will tell the thread to wait again).
            return .run(work)
        }
        if let index = idle.firstIndex(of: worker) {
            idle.remove(at: index)
        }
        threadCount -= 1
        return .exit
    }

    /// A busy thread is about to block in an announced wait: it stops counting against the cap.
    mutating func threadWillBlock() -> BlockAction {
        blockedCount += 1
        guard hasRoom, let work = takeQueued() else { return .none }
        threadCount += 1
        return .startThread(work)
    }

    /// A thread blocked in an announced wait woke and goes on with its work. The unblocked threads
    /// may outnumber the cap for a while; no new thread starts until they are fewer again.
    mutating func threadDidUnblock() {
        blockedCount -= 1
    }

    // MARK: - Reading

    /// How many items of work wait for a thread.
    var queuedCount: Int {
        queue.count - queueStart
    }

    /// The threads and the work, counted.
    var statistics: WorkerThreadsStatistics {
        WorkerThreadsStatistics(
            threads: threadCount,
            idle: idle.count,
            busy: threadCount - idle.count - blockedCount,
            blocked: blockedCount,
            queued: queuedCount
        )
    }

    /// Whether one more unblocked thread stays within the cap.
    private var hasRoom: Bool {
        threadCount - blockedCount < maximumThreads
    }

    private mutating func takeQueued() -> Work? {
        guard queueStart < queue.count else { return nil }
        let work = queue[queueStart]
        queueStart += 1
        if queueStart == queue.count {
            // Emptied: let go of what the taken items held, and of a burst's storage (a small
            // buffer is kept for the next few items past the cap).
            queue.removeAll(keepingCapacity: queue.capacity <= Self.compactionThreshold)
            queueStart = 0
        } else if queueStart >= Self.compactionThreshold, queueStart * 2 >= queue.count {
            // A steady stream never empties the queue: drop the taken items (and what they hold).
            queue.removeFirst(queueStart)
            queueStart = 0
        }
        return work
    }
}

/// A snapshot of a worker-thread pool, for tests and benchmarks.
struct WorkerThreadsStatistics: Equatable, Sendable, CustomStringConvertible {
    /// Threads alive (idle, busy or blocked), including those asked for and not yet running.
    var threads: Int
    /// Threads waiting for work.
    var idle: Int
    /// Threads with work that are not blocked in an announced wait.
    var busy: Int
    /// Threads blocked in an announced wait (they do not count against the cap).
    var blocked: Int
    /// Work waiting for a thread.
    var queued: Int

    /// The counts on one line, for test failures.
    var description: String {
        "threads \(threads) (idle \(idle), busy \(busy), blocked \(blocked)), queued \(queued)"
    }
}
