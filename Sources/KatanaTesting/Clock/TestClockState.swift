/// The bookkeeping of a ``TestClock`` as a plain value (tested without threads in
/// `TestClockStateTests`): the current time, the sleepers waiting for a deadline, the work the
/// clock waits for before it moves on, and the advance in progress.
///
/// The clock's wrapper calls one method per event while holding its lock and carries out what
/// the method returns (resuming a continuation) after releasing it.
///
/// An advance runs as a loop of two steps. First it waits until the clock is *idle*: no job of a
/// task running on the clock's executor is queued or running, every sleeper it woke has resumed,
/// and no activity is open. Then it wakes the sleeper with the earliest deadline within its
/// target, one at a time, with `now` set to that deadline. When no sleeper is due, `now` becomes
/// the target and the advance ends. Because the clock waits for idleness after every wake-up,
/// a woken task on the clock's executor runs until it suspends again, and a sleep it starts
/// within the target is found and woken by the same advance, at its own deadline.
struct TestClockState<Sleeper, IdleWaiter, Advancer> {
    /// How far a requested advance goes.
    enum Target: Equatable {
        /// This long after `now` at the moment the advance starts.
        case by(Duration)
        /// To this offset from the clock's start (never backwards).
        case to(Duration)
    }

    /// What a sleep's registration leads to.
    enum Registration: Equatable {
        /// The sleeper waits for an advance to reach its deadline.
        case suspended
        /// The deadline has already come; the sleeper returns at once.
        case due
        /// Its task was cancelled before it registered; it throws at once.
        case cancelled
    }

    /// Whether an advance may start now.
    enum AdvanceStart: Equatable {
        case start
        /// Another advance is in progress; this one starts when it ends (in call order).
        case queued
    }

    /// Whether an advance may go on to its next wake-up.
    enum IdleCheck: Equatable {
        case idle
        /// The waiter is kept until the clock becomes idle or the wait times out.
        case wait
        /// The wait with this token had already timed out.
        case timedOut
    }

    /// The next step of an advance.
    enum Step {
        /// Resume this sleeper; `now` is its deadline.
        case wake(Sleeper)
        /// No sleeper is due within the target; `now` is the target and the advance is over.
        case done
    }

    /// A waiting sleeper, as reported by ``sleepers``.
    struct Pending: Equatable {
        var id: UInt64
        var deadline: Duration
        var isOnClockExecutor: Bool
    }

    private enum Entry {
        /// Between the start of a sleep and its registration, while its cancellation handler is
        /// already installed.
        case reserved
        /// Cancelled before registering.
        case cancelled
        /// Registered; waits in `queue`.
        case waiting(Sleeper)
    }

    /// The time since the clock's start.
    private(set) var now: Duration = .zero
    private var entries: [UInt64: Entry] = [:]
    /// The waiting sleepers, by deadline and then by id (registration order).
    private var queue: [Pending] = []
    private var nextSleepID: UInt64 = 0

    /// Jobs of tasks on the clock's executor, queued or running.
    private(set) var runningJobs = 0
    /// Sleepers woken by an advance that have not resumed yet.
    private(set) var pendingWakeUps = 0
    /// Activities begun and not ended.
    private(set) var openActivities = 0

    private enum Phase: Equatable {
        case idle
        case advancing(target: Duration)
    }

    private var phase: Phase = .idle
    private var queuedAdvances: [(target: Target, advancer: Advancer)] = []
    private var idleWaiter: (token: UInt64, waiter: IdleWaiter)?
    private var nextIdleToken: UInt64 = 0
    /// The latest idle-wait token whose timeout fired before its waiter was registered.
    private var expiredIdleToken: UInt64?

    /// Whether the clock waits for nothing: see the type's description.
    var isIdle: Bool {
        runningJobs == 0 && pendingWakeUps == 0 && openActivities == 0
    }

    /// Whether an advance is in progress.
    var isAdvancing: Bool {
        phase != .idle
    }

    /// The waiting sleepers, earliest deadline first.
    var sleepers: [Pending] {
        queue
    }

    // MARK: - Sleeping

    /// A sleep begins; its id is used to register it and to cancel it.
    mutating func reserveSleep() -> UInt64 {
        let id = nextSleepID
        nextSleepID += 1
        entries[id] = .reserved
        return id
    }

    /// A sleep registers its continuation, to be woken at `deadline`.
    mutating func registerSleep(id: UInt64, deadline: Duration, sleeper: Sleeper, onClockExecutor: Bool) -> Registration {
        guard case .reserved = entries[id] else {
            // Only `.cancelled` is possible here: ids are registered once, by their own sleep.
            entries[id] = nil
            return .cancelled
        }
        guard deadline > now else {
            entries[id] = nil
            return .due
        }
        entries[id] = .waiting(sleeper)
        let pending = Pending(id: id, deadline: deadline, isOnClockExecutor: onClockExecutor)
        let index = insertionIndex(for: pending)
        queue.insert(pending, at: index)
        return .suspended
    }

    /// A sleep's task is cancelled: a registered sleeper is returned to be resumed with
    /// `CancellationError`; a sleep not registered yet is marked so its registration throws;
    /// a sleeper already woken (or gone) is left alone.
    mutating func cancelSleep(id: UInt64) -> Sleeper? {
        switch entries[id] {
        case .reserved:
            entries[id] = .cancelled
            return nil
        case .waiting(let sleeper):
            entries[id] = nil
            queue.removeAll { $0.id == id }
            return sleeper
        case .cancelled, nil:
            return nil
        }
    }

    /// A sleeper woken by an advance runs again; returns the idle waiter to resume if the clock
    /// has become idle.
    mutating func wokenSleeperResumed() -> IdleWaiter? {
        pendingWakeUps -= 1
        return takeIdleWaiterIfIdle()
    }

    // MARK: - Work the clock waits for

    /// A job of a task on the clock's executor is queued.
    mutating func jobEnqueued() {
        runningJobs += 1
    }

    /// A job of a task on the clock's executor has run (its task suspended or ended).
    mutating func jobFinished() -> IdleWaiter? {
        runningJobs -= 1
        return takeIdleWaiterIfIdle()
    }

    /// An activity begins: advances wait until it ends.
    mutating func activityBegan() {
        openActivities += 1
    }

    /// An activity ends.
    mutating func activityEnded() -> IdleWaiter? {
        openActivities -= 1
        return takeIdleWaiterIfIdle()
    }

    // MARK: - Advancing

    /// An advance asks to start; it is queued behind one in progress.
    mutating func requestAdvance(_ target: Target, advancer: Advancer) -> AdvanceStart {
        guard phase == .idle else {
            queuedAdvances.append((target, advancer))
            return .queued
        }
        phase = .advancing(target: resolve(target))
        return .start
    }

    /// A token for the next wait for idleness.
    mutating func makeIdleToken() -> UInt64 {
        nextIdleToken += 1
        return nextIdleToken
    }

    /// The advance waits for the clock to become idle.
    mutating func awaitIdle(token: UInt64, waiter: IdleWaiter) -> IdleCheck {
        if expiredIdleToken == token {
            expiredIdleToken = nil
            return .timedOut
        }
        if isIdle {
            return .idle
        }
        idleWaiter = (token, waiter)
        return .wait
    }

    /// The wait with `token` has lasted too long: its waiter is returned to be resumed as timed
    /// out, unless the clock became idle first.
    mutating func idleWaitTimedOut(token: UInt64) -> IdleWaiter? {
        guard let current = idleWaiter, current.token == token else {
            if token > (idleWaiter?.token ?? 0) {
                // The timeout fired before the waiter was registered.
                expiredIdleToken = token
            }
            return nil
        }
        idleWaiter = nil
        return current.waiter
    }

    /// The next step of the advance in progress: wake the earliest sleeper due within its target
    /// (`now` becomes its deadline), or end at the target.
    mutating func nextStep() -> Step {
        guard case .advancing(let target) = phase else { return .done }
        if let first = queue.first, first.deadline <= target, case .waiting(let sleeper) = entries[first.id] {
            queue.removeFirst()
            entries[first.id] = nil
            now = max(now, first.deadline)
            pendingWakeUps += 1
            return .wake(sleeper)
        }
        now = max(now, target)
        return .done
    }

    /// The advance in progress ends (done, or stopped by a timeout); returns the next queued
    /// advance to resume, which is then in progress.
    mutating func finishAdvance() -> Advancer? {
        guard !queuedAdvances.isEmpty else {
            phase = .idle
            return nil
        }
        let next = queuedAdvances.removeFirst()
        phase = .advancing(target: resolve(next.target))
        return next.advancer
    }

    // MARK: - Helpers

    private func resolve(_ target: Target) -> Duration {
        switch target {
        case .by(let duration): now + max(duration, .zero)
        case .to(let instant): max(instant, now)
        }
    }

    private mutating func takeIdleWaiterIfIdle() -> IdleWaiter? {
        guard isIdle, let current = idleWaiter else { return nil }
        idleWaiter = nil
        return current.waiter
    }

    /// Where `pending` goes so the queue stays ordered by deadline, then id.
    private func insertionIndex(for pending: Pending) -> Int {
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            let other = queue[middle]
            if other.deadline < pending.deadline || (other.deadline == pending.deadline && other.id < pending.id) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
