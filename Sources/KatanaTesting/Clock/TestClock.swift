/// A clock for tests whose time moves only when the test moves it, so code that sleeps (a
/// debounce, a retry with backoff, a heartbeat) is tested in microseconds and always the same way.
///
/// ```swift
/// let clock = TestClock()
/// clock.startTask {
///     for delay in [1, 2, 4] {
///         try await clock.sleep(for: .seconds(delay))
///         await retry()
///     }
/// }
/// await clock.advance(by: .seconds(7)) // wakes all three sleeps, at 1, 3 and 7 seconds
/// ```
///
/// `sleep(until:tolerance:)` suspends until an advance reaches its deadline; it never waits on
/// real time. A task cancelled while it sleeps throws `CancellationError` at once, and so does
/// one that is already cancelled when it starts to sleep. A deadline already reached returns at
/// once.
///
/// ## What an advance waits for
///
/// ``advance(by:fileID:filePath:line:column:)`` wakes the due sleepers one at a time, earliest
/// deadline first (equal deadlines in the order they began), with ``now`` set to each deadline.
/// Before it starts and after each wake-up it waits until the clock is idle:
///
/// - every task on the clock's ``executor`` has suspended or ended: a task made by
///   ``startTask(priority:_:)`` or by `Task(executorPreference: clock.executor)`, and its child
///   tasks (`async let`, task groups). A `Task {}` made inside such a task does not inherit the
///   executor (Swift passes executor preferences to child tasks only), so it is not waited for;
/// - every sleeper it woke has resumed;
/// - every ``Activity`` is ended.
///
/// So a task on the clock's executor that wakes and sleeps again within the advanced time is
/// woken again by the same advance, at its own deadline, and when ``advance(by:fileID:filePath:line:column:)``
/// returns, everything that the advance made runnable on that executor has run until it waits
/// again. This is deterministic.
///
/// Its limits:
///
/// - A sleeper in a task that does not run on the clock's executor is woken in order, and the
///   advance waits until it has resumed, but not until it suspends again: what it does next races
///   with the rest of the advance. Run such work on the clock's executor.
/// - A task on the clock's executor that awaits something else (another actor, a continuation
///   resumed by another thread, a store's dispatch) has suspended as far as the clock can tell;
///   when it resumes later it runs after the advance. Code that hands work to other threads can
///   hold the clock with an ``Activity`` until that work is done.
/// - A job that blocks its thread (a semaphore, a synchronous wait) keeps the clock busy; after
///   ``idleTimeout`` of real time the advance reports a failure and stops.
/// - Time never goes backwards: advancing by a negative duration or to an earlier instant
///   reports a failure and changes nothing.
/// - A sleeper that is never reached (nor cancelled) stays suspended, as on a real clock whose
///   time never comes; ``sleepers`` lists them so a test can report them.
/// - Task executors need macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2 (every Linux has
///   them); on older Apple systems there is no ``executor`` and every sleeper is of the first
///   kind above.
public final class TestClock: Clock, Sendable {
    /// The clock's durations are Swift's.
    public typealias Duration = Swift.Duration

    /// A sleep waiting for an advance, as listed by ``sleepers``.
    public struct Sleeper: Sendable, Equatable, CustomStringConvertible {
        /// When it wakes.
        public var deadline: Instant
        /// Whether the sleeping task runs on the clock's executor, so an advance that wakes it
        /// waits until it suspends again.
        public var isOnClockExecutor: Bool

        /// `sleeping until +3.0 seconds`, with where the task runs.
        public var description: String {
            "sleeping until \(deadline)" + (isOnClockExecutor ? "" : " (not on the clock's executor)")
        }
    }

    /// How long (in real time) an advance waits for the clock to become idle before it reports
    /// a failure and stops. It is a safety net against a blocked task, never a delay: an advance
    /// waits only as long as the work it woke takes to run.
    public let idleTimeout: Duration
    /// Where the clock reports misuse and timeouts.
    public let reporter: TestFailureReporter

    /// The clock's locked state, shared with its executor and its activities.
    let storage = TestClockStorage()
    private let jobExecutor: TestClockExecutor

    /// A clock at ``Instant/init(offset:)`` zero with no sleepers.
    ///
    /// - Parameters:
    ///   - idleTimeout: The real time an advance waits for woken work before it reports a failure.
    ///   - reporter: Where misuse and timeouts are reported; by default the running test framework.
    public init(idleTimeout: Duration = .seconds(5), reporter: TestFailureReporter = .automatic) {
        self.idleTimeout = idleTimeout
        self.reporter = reporter
        jobExecutor = TestClockExecutor(storage: storage)
    }

    // MARK: - Clock

    /// The current time of the clock.
    public var now: Instant {
        Instant(offset: storage.read(\.now))
    }

    /// Any duration can be slept: the clock has no resolution of its own.
    public var minimumResolution: Duration {
        .zero
    }

    /// Suspends until an advance reaches `deadline`; throws `CancellationError` if the task is
    /// cancelled before that. `tolerance` is ignored: the clock wakes sleepers exactly.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let storage = self.storage
        let id = storage.update { $0.reserveSleep() }
        let onClockExecutor = isOnClockExecutor
        let woken = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (sleeper: TestClockStorage.Sleeper) in
                let registration = storage.registerSleep(id: id, deadline: deadline.offset, sleeper: sleeper, onClockExecutor: onClockExecutor)
                switch registration {
                case .suspended: break
                case .due: sleeper.resume(returning: false)
                case .cancelled: sleeper.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            storage.update { $0.cancelSleep(id: id) }?.resume(throwing: CancellationError())
        }
        if woken {
            storage.wokenSleeperResumed()
        }
    }

    // MARK: - The clock's executor

    /// The executor whose tasks an advance waits for: see the type's description.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public var executor: any TaskExecutor {
        jobExecutor
    }

    /// Starts a task on the clock's executor, so that advances wait for it whenever it runs.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @discardableResult
    public func startTask<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        // Held from before the task exists until it runs, so an advance called right after this
        // waits for the task's first steps however late its first job is queued.
        let starting = beginActivity()
        return Task(executorPreference: jobExecutor, priority: priority) {
            starting.end()
            return try await operation()
        }
    }

    private var isOnClockExecutor: Bool {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return jobExecutor.isCurrent
        }
        return false
    }

    // MARK: - Advancing

    /// Moves the clock `duration` forward, waking every sleeper due on the way at its own
    /// deadline and waiting after each until the clock is idle (see the type's description).
    /// `advance(by: .zero)` only waits for the clock's work to settle.
    ///
    /// Concurrent advances run one after the other, in call order. A negative duration is
    /// reported as a failure at the caller's location.
    public func advance(
        by duration: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard duration >= .zero else {
            report("TestClock.advance(by: \(duration)): the duration is negative, and a test clock only moves forward; nothing was advanced", at: location)
            return
        }
        await advance(.by(duration), at: location)
    }

    /// Moves the clock forward to `deadline`, waking every sleeper due on the way at its own
    /// deadline (see ``advance(by:fileID:filePath:line:column:)``). An instant earlier than
    /// ``now`` is reported as a failure at the caller's location.
    public func advance(
        to deadline: Instant,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let current = now
        guard deadline >= current else {
            report("TestClock.advance(to: \(deadline)): that instant is earlier than now (\(current)), and a test clock only moves forward; nothing was advanced", at: location)
            return
        }
        await advance(.to(deadline.offset), at: location)
    }

    private func advance(_ target: TestClockStorage.State.Target, at location: TestSourceLocation) async {
        guard !isOnClockExecutor else {
            report("TestClock.advance was called from a task on the clock's own executor; it waits for that executor's tasks to suspend, so it would wait for itself. Advance the clock from the test instead", at: location)
            return
        }
        let storage = self.storage
        await withCheckedContinuation { (advancer: TestClockStorage.Advancer) in
            switch storage.update({ $0.requestAdvance(target, advancer: advancer) }) {
            case .start: advancer.resume()
            case .queued: break
            }
        }
        defer {
            storage.update { $0.finishAdvance() }?.resume()
        }
        while true {
            guard await storage.waitUntilIdle(timeout: idleTimeout) else {
                let stuck = storage.read { state in
                    "\(state.runningJobs) job(s) of tasks on the clock's executor still running, \(state.pendingWakeUps) woken sleeper(s) not resumed, \(state.openActivities) activit(y/ies) not ended"
                }
                report("TestClock.advance waited \(idleTimeout) (real time) for the work it woke to suspend or finish, and it did not (\(stuck)); a task may be blocked in a synchronous wait, or an activity never ended. Time stopped at \(now)", at: location)
                return
            }
            switch storage.update({ $0.nextStep() }) {
            case .wake(let sleeper):
                sleeper.resume(returning: true)
            case .done:
                return
            }
        }
    }

    private func report(_ message: String, at location: TestSourceLocation) {
        reporter.report(TestFailure(message, location: location))
    }

    // MARK: - Inspecting

    /// The sleeps waiting for an advance, earliest deadline first: side effects still waiting on
    /// the clock.
    public var sleepers: [Sleeper] {
        storage.read(\.sleepers).map { Sleeper(deadline: Instant(offset: $0.deadline), isOnClockExecutor: $0.isOnClockExecutor) }
    }

    /// How many sleeps are waiting for an advance.
    public var pendingSleepCount: Int {
        storage.read(\.sleepers.count)
    }

    /// Whether the clock waits for nothing right now: no task on its executor is running, every
    /// woken sleeper has resumed and every activity has ended.
    public var isIdle: Bool {
        storage.read(\.isIdle)
    }

    // MARK: - Observing

    /// Calls `observer`, with no lock of the clock's held, each time the clock may have become
    /// idle or gained a sleeper: a job of its executor finished, an activity ended, a woken
    /// sleeper resumed, a sleep began. A test store waits on these for its clock to go quiet; a
    /// clock shared by several test stores keeps every observer, for the clock's lifetime.
    func onChange(_ observer: @escaping @Sendable () -> Void) {
        storage.onChange(observer)
    }
}
