@testable import KatanaTesting
import KatanaTestSupport
import Testing

private func at(_ offset: Duration) -> TestClock.Instant {
    TestClock.Instant(offset: offset)
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

    @Test func sleep_wakesWhenAnAdvanceReachesItsDeadline_notBefore() async throws {
        let clock = makeClock()
        let woke = LockedList<TestClock.Instant>()
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
        try await finished(task)
        #expect(recorder.failures.isEmpty)
    }

    @Test func advance_wakesNestedSleepsWithinTheSameAdvance_atTheirOwnDeadlines() async throws {
        let clock = makeClock()
        let attempts = LockedList<TestClock.Instant>()
        let task = startRetryWithBackoff(on: clock, notingAttemptsIn: attempts)
        await clock.advance(by: .seconds(7))
        #expect(attempts.all == [at(.seconds(1)), at(.seconds(3)), at(.seconds(7))])
        #expect(clock.now == at(.seconds(7)))
        #expect(clock.sleepers.isEmpty)
        try await finished(task)
        #expect(recorder.failures.isEmpty)
    }

    @Test func advance_shorterThanTheNextBackoff_leavesTheRetryWaitingForIt() async throws {
        let clock = makeClock()
        let attempts = LockedList<TestClock.Instant>()
        let task = startRetryWithBackoff(on: clock, notingAttemptsIn: attempts)
        await clock.advance(by: .seconds(2))
        #expect(attempts.all == [at(.seconds(1))])
        #expect(clock.sleepers == [TestClock.Sleeper(deadline: at(.seconds(3)), isOnClockExecutor: true)])
        await clock.advance(by: .seconds(5))
        #expect(attempts.all == [at(.seconds(1)), at(.seconds(3)), at(.seconds(7))])
        try await finished(task)
    }

    @Test func debounce_emitsOnlyTheLastValue_onceItHasBeenQuietForTheInterval() async throws {
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

    @Test func advance_withNoSleepers_movesNowExactly() async throws {
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

    @Test func advance_wakesManyConcurrentSleepersInDeadlineOrder_eachAtItsDeadline() async throws {
        let clock = makeClock()
        let woke = LockedList<(deadline: Int, now: TestClock.Instant)>()
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
            try await finished(task)
        }
    }

    @Test func startTask_thenAdvanceAtOnce_neverMissesTheTasksFirstSleep() async throws {
        for _ in 0..<100 {
            let clock = makeClock()
            let task = startOnClock(clock) { try await clock.sleep(for: .seconds(1)) }
            await clock.advance(by: .seconds(1))
            #expect(clock.pendingSleepCount == 0)
            try await finished(task)
        }
    }

    @Test func tasksCreatedByATaskOnTheClockExecutor_runOnItToo() async throws {
        let clock = makeClock()
        let woke = LockedList<String>()
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
        try await finished(task)
    }

    @Test func unstructuredTasksCreatedOnTheClockExecutor_doNotInheritIt() async throws {
        // Swift passes an executor preference to child tasks only: a `Task {}` made inside runs
        // on the global executor, and an advance does not wait for it to suspend again.
        let clock = makeClock()
        let inner = LockedList<Task<Void, any Error>>()
        let outer = startOnClock(clock) {
            inner.append(Task { try await clock.sleep(for: .seconds(1)) })
        }
        try await finished(outer)
        try await clock.waitUntil("the inner task's sleep") { clock.pendingSleepCount == 1 }
        #expect(clock.sleepers.map(\.isOnClockExecutor) == [false])
        await clock.advance(by: .seconds(1))
        for task in inner.all {
            try await finished(task)
        }
    }

    @Test func sleepingThroughAnyClock_isWokenByTheTestClock() async throws {
        let clock = makeClock()
        let anyClock: any Clock<Duration> = clock
        let task = startOnClock(clock) {
            try await anyClock.sleep(for: .seconds(2))
        }
        await clock.advance(by: .seconds(1))
        #expect(clock.pendingSleepCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(clock.pendingSleepCount == 0)
        try await finished(task)
    }

    // MARK: Cancellation

    @Test func sleep_cancelledWhileWaiting_throwsCancellationErrorPromptly() async throws {
        let clock = makeClock()
        let task = startOnClock(clock) { try await clock.sleep(for: .seconds(10)) }
        await clock.advance(by: .zero)
        #expect(clock.pendingSleepCount == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await finished(task, "the cancelled sleep to throw") }
        #expect(clock.pendingSleepCount == 0)
        #expect(clock.now == at(.zero))
    }

    @Test func sleep_inAnAlreadyCancelledTask_throwsAtOnceAndRegistersNothing() async throws {
        let clock = makeClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await finished(task, "the sleep of a cancelled task to throw") }
        #expect(clock.pendingSleepCount == 0)
    }

    @Test func sleep_cancelledAfterItWasWoken_returnsNormally() async throws {
        let clock = makeClock()
        let reached = LockedList<String>()
        let task = startOnClock(clock) {
            try await clock.sleep(for: .seconds(1))
            withUnsafeCurrentTask { $0?.cancel() }
            reached.append("after the sleep")
        }
        await clock.advance(by: .seconds(1))
        #expect(reached.all == ["after the sleep"])
        try await finished(task)
    }

    // MARK: Work outside the clock's executor

    @Test func sleeperOutsideTheClockExecutor_isWokenAtItsDeadline() async throws {
        let clock = makeClock()
        let task = Task { () -> TestClock.Instant in
            try await clock.sleep(for: .seconds(3))
            return clock.now
        }
        try await clock.waitUntil("the sleep outside the clock's executor") { clock.pendingSleepCount == 1 }
        #expect(clock.sleepers == [TestClock.Sleeper(deadline: at(.seconds(3)), isOnClockExecutor: false)])
        await clock.advance(by: .seconds(3))
        #expect(try await finished(task) == at(.seconds(3)))
    }

    @Test func advance_waitsForAnOpenActivity_andGoesOnWhenItEnds() async throws {
        let clock = makeClock()
        let activity = clock.beginActivity()
        #expect(!clock.isIdle)
        let advanced = LockedList<String>()
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
        try await finished(advance)
        #expect(advanced.all == ["done"])
        #expect(clock.now == at(.seconds(1)))
        #expect(clock.isIdle)
    }

    @Test func concurrentAdvances_runOneAfterTheOther() async throws {
        let clock = makeClock()
        let first = Task { await clock.advance(by: .seconds(1)) }
        let second = Task { await clock.advance(by: .seconds(1)) }
        try await finished(first)
        try await finished(second)
        #expect(clock.now == at(.seconds(2)))
    }

    // MARK: Misuse, reported as failures

    @Test func advance_byANegativeDuration_reportsAFailureAndChangesNothing() async throws {
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

    @Test func advance_toAnEarlierInstant_reportsAFailureAndChangesNothing() async throws {
        let clock = makeClock()
        await clock.advance(by: .seconds(2))
        await clock.advance(to: at(.seconds(1)))
        #expect(clock.now == at(.seconds(2)))
        #expect(recorder.messages == [
            "TestClock.advance(to: +1.0 seconds): that instant is earlier than now (+2.0 seconds), and a test clock only moves forward; nothing was advanced",
        ])
    }

    @Test func advance_fromATaskOnTheClockExecutor_reportsThatItWouldWaitForItself() async throws {
        let clock = makeClock()
        let task = startOnClock(clock) { await clock.advance(by: .seconds(1)) }
        try await finished(task)
        #expect(clock.now == at(.zero))
        #expect(recorder.messages == [
            "TestClock.advance was called from a task on the clock's own executor; it waits for that executor's tasks to suspend, so it would wait for itself. Advance the clock from the test instead",
        ])
    }

    @Test func advance_whenTheClockNeverBecomesIdle_reportsATimeoutAndStops() async throws {
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
