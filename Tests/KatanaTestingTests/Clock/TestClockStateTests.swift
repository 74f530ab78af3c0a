import Testing
@testable import KatanaTesting

/// Sleepers, idle waiters and advancers stand in as names: only identity and order matter.
private typealias Machine = TestClockState<String, String, String>

private func seconds(_ value: Int) -> Duration { .seconds(value) }

@Suite struct TestClockStateTests {
    // MARK: Sleeping

    @Test func registerSleep_withFutureDeadline_suspendsAndIsListed() {
        var machine = Machine()
        let id = machine.reserveSleep()
        #expect(machine.registerSleep(id: id, deadline: seconds(2), sleeper: "a", onClockExecutor: true) == .suspended)
        #expect(machine.sleepers == [.init(id: id, deadline: seconds(2), isOnClockExecutor: true)])
    }

    @Test(arguments: [0, -1])
    func registerSleep_withDeadlineNotAfterNow_isDueAtOnce(deadline: Int) {
        var machine = Machine()
        let id = machine.reserveSleep()
        #expect(machine.registerSleep(id: id, deadline: seconds(deadline), sleeper: "a", onClockExecutor: false) == .due)
        #expect(machine.sleepers.isEmpty)
    }

    @Test func sleepers_areOrderedByDeadlineThenByRegistration() {
        var machine = Machine()
        for (name, deadline) in [("c", 3), ("a1", 1), ("b", 2), ("a2", 1)] {
            let id = machine.reserveSleep()
            _ = machine.registerSleep(id: id, deadline: seconds(deadline), sleeper: name, onClockExecutor: false)
        }
        #expect(machine.sleepers.map(\.deadline) == [seconds(1), seconds(1), seconds(2), seconds(3)])
        #expect(machine.sleepers.map(\.id) == [1, 3, 2, 0])
    }

    @Test func cancelSleep_beforeRegistration_makesTheRegistrationThrow() {
        var machine = Machine()
        let id = machine.reserveSleep()
        #expect(machine.cancelSleep(id: id) == nil)
        #expect(machine.registerSleep(id: id, deadline: seconds(1), sleeper: "a", onClockExecutor: false) == .cancelled)
        #expect(machine.sleepers.isEmpty)
    }

    @Test func cancelSleep_ofAWaitingSleeper_returnsItAndRemovesIt() {
        var machine = Machine()
        let first = machine.reserveSleep()
        _ = machine.registerSleep(id: first, deadline: seconds(1), sleeper: "a", onClockExecutor: false)
        let second = machine.reserveSleep()
        _ = machine.registerSleep(id: second, deadline: seconds(2), sleeper: "b", onClockExecutor: false)
        #expect(machine.cancelSleep(id: first) == "a")
        #expect(machine.sleepers.map(\.id) == [second])
        #expect(machine.cancelSleep(id: first) == nil)
    }

    @Test func cancelSleep_afterItWasWoken_leavesItAlone() {
        var machine = Machine()
        let id = machine.reserveSleep()
        _ = machine.registerSleep(id: id, deadline: seconds(1), sleeper: "a", onClockExecutor: false)
        _ = machine.requestAdvance(.by(seconds(1)), advancer: "advance")
        guard case .wake("a") = machine.nextStep() else {
            Issue.record("the sleeper was not woken")
            return
        }
        #expect(machine.cancelSleep(id: id) == nil)
        #expect(machine.pendingWakeUps == 1)
    }

    // MARK: Advancing

    @Test func nextStep_wakesDueSleepersInOrderAtTheirDeadlines_thenStopsAtTheTarget() {
        var machine = Machine()
        for (name, deadline) in [("late", 9), ("two", 2), ("one", 1), ("alsoTwo", 2)] {
            let id = machine.reserveSleep()
            _ = machine.registerSleep(id: id, deadline: seconds(deadline), sleeper: name, onClockExecutor: true)
        }
        #expect(machine.requestAdvance(.by(seconds(5)), advancer: "advance") == .start)
        var woken: [(String, Duration)] = []
        while case .wake(let sleeper) = machine.nextStep() {
            woken.append((sleeper, machine.now))
            _ = machine.wokenSleeperResumed()
        }
        #expect(woken.map(\.0) == ["one", "two", "alsoTwo"])
        #expect(woken.map(\.1) == [seconds(1), seconds(2), seconds(2)])
        #expect(machine.now == seconds(5))
        #expect(machine.sleepers.map(\.deadline) == [seconds(9)])
    }

    @Test func nextStep_findsASleepRegisteredByAWokenSleeperWithinTheTarget() {
        // A retry with backoff: sleeps of 1, 2 and 4 seconds, each begun when the last one woke.
        var machine = Machine()
        var id = machine.reserveSleep()
        _ = machine.registerSleep(id: id, deadline: seconds(1), sleeper: "retry", onClockExecutor: true)
        _ = machine.requestAdvance(.by(seconds(7)), advancer: "advance")
        var wakeTimes: [Duration] = []
        for delay in [2, 4] {
            guard case .wake = machine.nextStep() else {
                Issue.record("no wake-up before the \(delay) s sleep")
                return
            }
            wakeTimes.append(machine.now)
            _ = machine.wokenSleeperResumed()
            id = machine.reserveSleep()
            #expect(machine.registerSleep(id: id, deadline: machine.now + seconds(delay), sleeper: "retry", onClockExecutor: true) == .suspended)
        }
        guard case .wake = machine.nextStep() else {
            Issue.record("the last sleep was not woken")
            return
        }
        wakeTimes.append(machine.now)
        _ = machine.wokenSleeperResumed()
        guard case .done = machine.nextStep() else {
            Issue.record("the advance did not end")
            return
        }
        #expect(wakeTimes == [seconds(1), seconds(3), seconds(7)])
        #expect(machine.now == seconds(7))
    }

    @Test func nextStep_withNoSleepers_movesNowToTheTarget() {
        var machine = Machine()
        _ = machine.requestAdvance(.to(seconds(4)), advancer: "advance")
        guard case .done = machine.nextStep() else {
            Issue.record("an advance with no sleepers woke something")
            return
        }
        #expect(machine.now == seconds(4))
        #expect(machine.finishAdvance() == nil)
        #expect(!machine.isAdvancing)
    }

    @Test func requestAdvance_duringAnAdvance_isQueuedAndStartsWhenItEnds_inCallOrder() {
        var machine = Machine()
        #expect(machine.requestAdvance(.by(seconds(1)), advancer: "first") == .start)
        #expect(machine.requestAdvance(.by(seconds(2)), advancer: "second") == .queued)
        #expect(machine.requestAdvance(.to(seconds(2)), advancer: "third") == .queued)
        _ = machine.nextStep()
        #expect(machine.now == seconds(1))
        #expect(machine.finishAdvance() == "second")
        _ = machine.nextStep()
        // `.by` is measured from the time the advance starts.
        #expect(machine.now == seconds(3))
        #expect(machine.finishAdvance() == "third")
        _ = machine.nextStep()
        // `.to` an instant already passed leaves the time alone.
        #expect(machine.now == seconds(3))
        #expect(machine.finishAdvance() == nil)
    }

    // MARK: Idleness

    @Test func awaitIdle_withNothingRunning_isIdle() {
        var machine = Machine()
        let token = machine.makeIdleToken()
        #expect(machine.awaitIdle(token: token, waiter: "waiter") == .idle)
    }

    @Test func awaitIdle_waitsForJobsWakeUpsAndActivities_andIsResumedByTheLastOneToEnd() {
        var machine = Machine()
        let id = machine.reserveSleep()
        _ = machine.registerSleep(id: id, deadline: seconds(1), sleeper: "a", onClockExecutor: true)
        _ = machine.requestAdvance(.by(seconds(1)), advancer: "advance")
        _ = machine.nextStep()
        machine.jobEnqueued()
        machine.jobEnqueued()
        machine.activityBegan()
        let token = machine.makeIdleToken()
        #expect(machine.awaitIdle(token: token, waiter: "waiter") == .wait)
        #expect(machine.jobFinished() == nil)
        #expect(machine.wokenSleeperResumed() == nil)
        #expect(machine.activityEnded() == nil)
        #expect(!machine.isIdle)
        #expect(machine.jobFinished() == "waiter")
        #expect(machine.isIdle)
        // Resumed once only.
        machine.jobEnqueued()
        #expect(machine.jobFinished() == nil)
    }

    @Test func idleWaitTimedOut_returnsTheWaiterOnce_andTheLaterIdleDoesNotResumeItAgain() {
        var machine = Machine()
        machine.activityBegan()
        let token = machine.makeIdleToken()
        #expect(machine.awaitIdle(token: token, waiter: "waiter") == .wait)
        #expect(machine.idleWaitTimedOut(token: token) == "waiter")
        #expect(machine.idleWaitTimedOut(token: token) == nil)
        #expect(machine.activityEnded() == nil)
    }

    @Test func idleWaitTimedOut_beforeTheWaiterIsRegistered_makesTheWaitTimeOutAtOnce() {
        var machine = Machine()
        machine.activityBegan()
        let token = machine.makeIdleToken()
        #expect(machine.idleWaitTimedOut(token: token) == nil)
        #expect(machine.awaitIdle(token: token, waiter: "waiter") == .timedOut)
        // A later wait is not affected.
        let next = machine.makeIdleToken()
        #expect(machine.awaitIdle(token: next, waiter: "next") == .wait)
    }

    @Test func idleWaitTimedOut_afterTheClockBecameIdle_returnsNothing() {
        var machine = Machine()
        machine.jobEnqueued()
        let token = machine.makeIdleToken()
        _ = machine.awaitIdle(token: token, waiter: "waiter")
        #expect(machine.jobFinished() == "waiter")
        #expect(machine.idleWaitTimedOut(token: token) == nil)
    }
}
