import Testing
@testable import KatanaTesting

private func at(_ offset: Duration) -> TestClock.Instant {
    TestClock.Instant(offset: offset)
}

/// Fails the test unless `task` ends, without error, within the bounded wait.
@discardableResult
private func expectFinishes<Success: Sendable, Failure: Error>(
    _ task: Task<Success, Failure>,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Success? {
    switch await outcome(of: task) {
    case .finished(.success(let value)):
        return value
    case .finished(.failure(let error)):
        Issue.record("the task threw \(error)", sourceLocation: sourceLocation)
    case .timedOut:
        Issue.record("the task did not end within the bounded wait", sourceLocation: sourceLocation)
    }
    return nil
}

@Suite(.enabled(if: clockExecutorIsAvailable, "the test clock needs task executors"))
struct TestClockTests {
    let recorder = TestFailureRecorder()

    /// A clock whose advances wait up to 120 s for woken work: a safety net that only a clock that
    /// never becomes idle reaches, long enough for a loaded machine under the thread sanitizer.
    func makeClock(idleTimeout: Duration = .seconds(120)) -> TestClock {
        TestClock(idleTimeout: idleTimeout, reporter: recorder.reporter)
    }

    // MARK: Sleeping and advancing

    @Test func sleep_wakesWhenAnAdvanceReachesItsDeadline_notBefore() async {
        let clock = makeClock()
        let woke = SharedLog<TestClock.Instant>()
        let task = startOnClock(clock) {
            try await clock.sleep(for: .seconds(1))
            woke.append(clock.now)
        }
        await clock.advance(by: .milliseconds(999))
        #expect(woke.all.isEmpty)
        #expect(clock.pendingSleepCount == 1)
        await clock.advance(by: .milliseconds(1))
        #expect(woke.all == [at(.seconds(1))])
        #expect(clock.pendingSleepCount == 0)
        await expectFinishes(task)
        #expect(recorder.failures.isEmpty)
    }

    @Test func advance_wakesNestedSleepsWithinTheSameAdvance_atTheirOwnDeadlines() async {
        // A retry with backoff: 1, 2 and 4 seconds, each sleep begun when the previous one woke.
        let clock = makeClock()
        let attempts = SharedLog<TestClock.Instant>()
        let task = startOnClock(clock) {
            for delay in [1, 2, 4] {
                try await clock.sleep(for: .seconds(delay))
                attempts.append(clock.now)
            }
        }
        await clock.advance(by: .seconds(7))
        #expect(attempts.all == [at(.seconds(1)), at(.seconds(3)), at(.seconds(7))])
        #expect(clock.now == at(.seconds(7)))
        #expect(clock.sleepers.isEmpty)
        await expectFinishes(task)
        #expect(recorder.failures.isEmpty)
    }

    @Test func advance_shorterThanTheNextBackoff_leavesTheRetryWaitingForIt() async {
        let clock = makeClock()
        let attempts = SharedLog<TestClock.Instant>()
        let task = startOnClock(clock) {
            for delay in [1, 2, 4] {
                try await clock.sleep(for: .seconds(delay))
                attempts.append(clock.now)
            }
        }
        await clock.advance(by: .seconds(2))
        #expect(attempts.all == [at(.seconds(1))])
        #expect(clock.sleepers == [TestClock.Sleeper(deadline: at(.seconds(3)), isOnClockExecutor: true)])
        await clock.advance(by: .seconds(5))
        #expect(attempts.all == [at(.seconds(1)), at(.seconds(3)), at(.seconds(7))])
        await expectFinishes(task)
    }

    @Test func debounce_emitsOnlyTheLastValue_onceItHasBeenQuietForTheInterval() async {
        let clock = makeClock()
        let debouncer = Debouncer(clock: clock, interval: .milliseconds(300))
        debouncer.send("a")
        await clock.advance(by: .milliseconds(200))
        debouncer.send("ab")
        await clock.advance(by: .milliseconds(299))
        #expect(debouncer.emitted.all.isEmpty)
        debouncer.send("abc")
        await clock.advance(by: .milliseconds(300))
        #expect(debouncer.emitted.all == ["abc@+0.799 seconds"])
        #expect(clock.pendingSleepCount == 0)
        #expect(recorder.failures.isEmpty)
    }

    @Test func advance_withNoSleepers_movesNowExactly() async {
        let clock = makeClock()
        #expect(clock.now == at(.zero))
        await clock.advance(by: .milliseconds(1_500))
        #expect(clock.now == at(.milliseconds(1_500)))
        await clock.advance(to: at(.seconds(4)))
        #expect(clock.now == at(.seconds(4)))
        await clock.advance(by: .zero)
        #expect(clock.now == at(.seconds(4)))
        #expect(recorder.failures.isEmpty)
    }

    @Test func sleep_untilAnInstantAlreadyReached_returnsAtOnce() async throws {
        let clock = makeClock()
        await clock.advance(by: .seconds(2))
        try await clock.sleep(until: at(.seconds(1)))
        try await clock.sleep(until: at(.seconds(2)))
        try await clock.sleep(for: .zero)
        #expect(clock.pendingSleepCount == 0)
    }

    @Test func advance_wakesManyConcurrentSleepersInDeadlineOrder_eachAtItsDeadline() async {
        let clock = makeClock()
        let woke = SharedLog<(deadline: Int, now: TestClock.Instant)>()
        // Deadlines in a scrambled but fixed order, each twice so equal deadlines occur.
        let deadlines = (0..<200).map { ($0 * 37) % 100 + 1 }
        var tasks: [Task<Void, any Error>] = []
        for deadline in deadlines {
            tasks.append(startOnClock(clock) {
                try await clock.sleep(for: .milliseconds(deadline))
                woke.append((deadline, clock.now))
            })
        }
        await clock.advance(by: .zero)
        #expect(clock.pendingSleepCount == 200)
        await clock.advance(by: .milliseconds(100))
        #expect(woke.all.map(\.deadline) == deadlines.sorted())
        #expect(woke.all.allSatisfy { $0.now == at(.milliseconds($0.deadline)) })
        for task in tasks {
            await expectFinishes(task)
        }
    }

    @Test func startTask_thenAdvanceAtOnce_neverMissesTheTasksFirstSleep() async {
        for _ in 0..<100 {
            let clock = makeClock()
            let task = startOnClock(clock) { try await clock.sleep(for: .seconds(1)) }
            await clock.advance(by: .seconds(1))
            #expect(clock.pendingSleepCount == 0)
            await expectFinishes(task)
        }
    }

    @Test func tasksCreatedByATaskOnTheClockExecutor_runOnItToo() async {
        let clock = makeClock()
        let woke = SharedLog<String>()
        let task = startOnClock(clock) {
            async let child: Void = {
                try await clock.sleep(for: .seconds(1))
                woke.append("child")
            }()
            try await clock.sleep(for: .seconds(2))
            woke.append("parent")
            try await child
        }
        await clock.advance(by: .zero)
        #expect(clock.sleepers.map(\.isOnClockExecutor) == [true, true])
        await clock.advance(by: .seconds(2))
        #expect(woke.all == ["child", "parent"])
        await expectFinishes(task)
    }

    @Test func unstructuredTasksCreatedOnTheClockExecutor_doNotInheritIt() async {
        // Swift passes an executor preference to child tasks only: a `Task {}` made inside runs
        // on the global executor, and an advance does not wait for it to suspend again.
        let clock = makeClock()
        let inner = SharedLog<Task<Void, any Error>>()
        let outer = startOnClock(clock) {
            inner.append(Task { try await clock.sleep(for: .seconds(1)) })
        }
        await expectFinishes(outer)
        #expect(await eventually { clock.pendingSleepCount == 1 })
        #expect(clock.sleepers.map(\.isOnClockExecutor) == [false])
        await clock.advance(by: .seconds(1))
        for task in inner.all {
            await expectFinishes(task)
        }
    }

    @Test func sleepingThroughAnyClock_isWokenByTheTestClock() async {
        let clock = makeClock()
        let anyClock: any Clock<Duration> = clock
        let task = startOnClock(clock) {
            try await anyClock.sleep(for: .seconds(2))
        }
        await clock.advance(by: .seconds(1))
        #expect(clock.pendingSleepCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(clock.pendingSleepCount == 0)
        await expectFinishes(task)
    }

    // MARK: Cancellation

    @Test func sleep_cancelledWhileWaiting_throwsCancellationErrorPromptly() async {
        let clock = makeClock()
        let task = startOnClock(clock) { try await clock.sleep(for: .seconds(10)) }
        await clock.advance(by: .zero)
        #expect(clock.pendingSleepCount == 1)
        task.cancel()
        guard case .finished(.failure(let error)) = await outcome(of: task) else {
            Issue.record("the cancelled sleep did not throw within the bounded wait")
            return
        }
        #expect(error is CancellationError)
        #expect(clock.pendingSleepCount == 0)
        #expect(clock.now == at(.zero))
    }

    @Test func sleep_inAnAlreadyCancelledTask_throwsAtOnceAndRegistersNothing() async {
        let clock = makeClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        guard case .finished(.failure(let error)) = await outcome(of: task) else {
            Issue.record("the sleep of a cancelled task did not throw")
            return
        }
        #expect(error is CancellationError)
        #expect(clock.pendingSleepCount == 0)
    }

    @Test func sleep_cancelledAfterItWasWoken_returnsNormally() async {
        let clock = makeClock()
        let reached = SharedLog<String>()
        let task = startOnClock(clock) {
            try await clock.sleep(for: .seconds(1))
            withUnsafeCurrentTask { $0?.cancel() }
            reached.append("after the sleep")
        }
        await clock.advance(by: .seconds(1))
        #expect(reached.all == ["after the sleep"])
        await expectFinishes(task)
    }

    // MARK: Work outside the clock's executor

    @Test func sleeperOutsideTheClockExecutor_isWokenAtItsDeadline() async {
        let clock = makeClock()
        let task = Task { () -> TestClock.Instant in
            try await clock.sleep(for: .seconds(3))
            return clock.now
        }
        #expect(await eventually { clock.pendingSleepCount == 1 })
        #expect(clock.sleepers == [TestClock.Sleeper(deadline: at(.seconds(3)), isOnClockExecutor: false)])
        await clock.advance(by: .seconds(3))
        #expect(await expectFinishes(task) == at(.seconds(3)))
    }

    @Test func advance_waitsForAnOpenActivity_andGoesOnWhenItEnds() async {
        let clock = makeClock()
        let activity = clock.beginActivity()
        #expect(!clock.isIdle)
        let advanced = SharedLog<String>()
        let advance = Task {
            await clock.advance(by: .seconds(1))
            advanced.append("done")
        }
        // The advance must still be waiting after its task had ample chance to run.
        for _ in 0..<50 { await Task.yield() }
        #expect(advanced.all.isEmpty)
        #expect(clock.now == at(.zero))
        activity.end()
        activity.end()
        await expectFinishes(advance)
        #expect(advanced.all == ["done"])
        #expect(clock.now == at(.seconds(1)))
        #expect(clock.isIdle)
    }

    @Test func concurrentAdvances_runOneAfterTheOther() async {
        let clock = makeClock()
        let first = Task { await clock.advance(by: .seconds(1)) }
        let second = Task { await clock.advance(by: .seconds(1)) }
        await expectFinishes(first)
        await expectFinishes(second)
        #expect(clock.now == at(.seconds(2)))
    }

    // MARK: Misuse, reported as failures

    @Test func advance_byANegativeDuration_reportsAFailureAndChangesNothing() async {
        let clock = makeClock()
        await clock.advance(by: .seconds(2))
        let line: UInt = #line + 1
        await clock.advance(by: .seconds(-1))
        #expect(clock.now == at(.seconds(2)))
        #expect(recorder.messages == [
            "TestClock.advance(by: -1.0 seconds): the duration is negative, and a test clock only moves forward; nothing was advanced",
        ])
        #expect(recorder.failures.first?.location.line == line)
        #expect(recorder.failures.first?.location.fileID.description == "KatanaTestingTests/TestClockTests.swift")
        #expect(recorder.failures.first?.severity == .failure)
    }

    @Test func advance_toAnEarlierInstant_reportsAFailureAndChangesNothing() async {
        let clock = makeClock()
        await clock.advance(by: .seconds(2))
        await clock.advance(to: at(.seconds(1)))
        #expect(clock.now == at(.seconds(2)))
        #expect(recorder.messages == [
            "TestClock.advance(to: +1.0 seconds): that instant is earlier than now (+2.0 seconds), and a test clock only moves forward; nothing was advanced",
        ])
    }

    @Test func advance_fromATaskOnTheClockExecutor_reportsThatItWouldWaitForItself() async {
        let clock = makeClock()
        let task = startOnClock(clock) { await clock.advance(by: .seconds(1)) }
        await expectFinishes(task)
        #expect(clock.now == at(.zero))
        #expect(recorder.messages == [
            "TestClock.advance was called from a task on the clock's own executor; it waits for that executor's tasks to suspend, so it would wait for itself. Advance the clock from the test instead",
        ])
    }

    @Test func advance_whenTheClockNeverBecomesIdle_reportsATimeoutAndStops() async {
        let clock = makeClock(idleTimeout: .milliseconds(50))
        let activity = clock.beginActivity()
        await clock.advance(by: .seconds(1))
        #expect(clock.now == at(.zero))
        #expect(recorder.messages == [
            "TestClock.advance waited 0.05 seconds (real time) for the work it woke to suspend or finish, and it did not (0 job(s) of tasks on the clock's executor still running, 0 woken sleeper(s) not resumed, 1 activit(y/ies) not ended); a task may be blocked in a synchronous wait, or an activity never ended. Time stopped at +0.0 seconds",
        ])
        activity.end()
        // The clock works again once the activity has ended.
        await clock.advance(by: .seconds(1))
        #expect(clock.now == at(.seconds(1)))
    }
}

/// Emits the last value sent once no other value came for `interval`: each value cancels the
/// wait of the one before.
private final class Debouncer: Sendable {
    let clock: TestClock
    let interval: Duration
    let emitted = SharedLog<String>()
    private let pending = LockedValue<Task<Void, any Error>?>(nil)

    init(clock: TestClock, interval: Duration) {
        self.clock = clock
        self.interval = interval
    }

    func send(_ value: String) {
        let clock = clock
        let interval = interval
        let emitted = emitted
        let next = startOnClock(clock) {
            try await clock.sleep(for: interval)
            emitted.append("\(value)@\(clock.now)")
        }
        pending.withLock { pending in
            pending?.cancel()
            pending = next
        }
    }
}
