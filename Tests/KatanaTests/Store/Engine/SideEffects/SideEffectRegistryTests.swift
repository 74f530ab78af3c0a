import Testing
@testable import Katana
import KatanaTestSupport

/// The registry of a store's side effects, event by event, without threads: jobs are strings,
/// promises are real promises that nothing settles, and tasks are finished empty tasks.
@Suite struct SideEffectRegistryTests {
    private struct Search: Dispatchable {}
    private struct Save: Dispatchable {}

    /// A side effect as the registry sees it, named for the test.
    private final class Named: RegisteredSideEffect {
        let name: String
        let order: UInt64
        let itemType: any Dispatchable.Type = Search.self
        let identity: SideEffectIdentity?
        let promise: PromiseHandle?
        let isAsync: Bool
        let startsTaskWhenTaken: Bool
        /// What cancelled it, as the registry recorded it.
        private(set) var cancellation: SideEffectEnd.Canceller?

        func recordCancellation(_ canceller: SideEffectEnd.Canceller) {
            cancellation = canceller
        }

        init(name: String, order: UInt64, identity: SideEffectIdentity?, promise: PromiseHandle, isAsync: Bool, startsTaskWhenTaken: Bool) {
            self.name = name
            self.order = order
            self.identity = identity
            self.promise = promise
            self.isAsync = isAsync
            self.startsTaskWhenTaken = startsTaskWhenTaken
        }
    }

    /// The registry under test, and named stand-ins for what it keeps.
    private struct Fixture {
        var registry = SideEffectRegistry<Named>(width: 2)
        private var promises: [String: PromiseHandle] = [:]
        private var tokens: [String: SideEffectRegistry<Named>.Token] = [:]
        private var tasks: [String: Task<Void, Never>] = [:]

        mutating func promise(_ name: String) -> PromiseHandle {
            if let known = promises[name] { return known }
            let made = Promise<Void> { _, _ in }.handle
            promises[name] = made
            return made
        }

        mutating func task(_ name: String) -> Task<Void, Never> {
            if let known = tasks[name] { return known }
            let made = Task<Void, Never> {}
            tasks[name] = made
            return made
        }

        func token(_ name: String) -> SideEffectRegistry<Named>.Token {
            tokens[name]!
        }

        /// Adds the side effect `name` (`startsTask`: an async one without interceptors, whose
        /// task starts at once).
        @discardableResult
        mutating func add(
            _ name: String,
            order: UInt64,
            id: SideEffectID? = nil,
            latestWins: Bool = false,
            isAsync: Bool = true,
            startsTask: Bool = false
        ) -> SideEffectRegistry<Named>.Added {
            let identity = id.map { SideEffectIdentity(id: $0, cancelsInFlight: latestWins) }
            let added = registry.add(Named(
                name: name, order: order, identity: identity, promise: promise(name), isAsync: isAsync, startsTaskWhenTaken: startsTask
            ))
            if let token = added.token {
                tokens[name] = token
            }
            return added
        }

        /// Adds an async side effect without interceptors, and has a worker take it at once: it
        /// becomes a task (nothing else may be waiting before it).
        mutating func addTask(_ name: String, order: UInt64, id: SideEffectID? = nil, latestWins: Bool = false) {
            let added = add(name, order: order, id: id, latestWins: latestWins, startsTask: true)
            guard added.token != nil else { return }
            #expect(beginAndTake() == name, "another side effect was waiting before \(name)")
        }

        /// Adds a side effect named `j<order>` for each order.
        mutating func addJobs(_ orders: Range<UInt64>) {
            for order in orders {
                add("j\(order)", order: order)
            }
        }

        /// Workers begin and take one job each, on `threads` (the threads the monitor asks
        /// about); returns what each took.
        @discardableResult
        mutating func beginAndTake(onThreads threads: Int32...) -> [SideEffectRegistry<Named>.Taken?] {
            threads.map { thread in
                registry.workerBegins()
                return registry.take(onThread: thread)
            }
        }

        /// A worker begins and takes one job; returns its name.
        mutating func beginAndTake() -> String? {
            registry.workerBegins()
            return take()
        }

        mutating func take() -> String? {
            registry.take()?.entry.name
        }

        /// "promise/task" for each stop ("-" for a missing task).
        func names(_ stops: [SideEffectRegistry<Named>.Stop]) -> [String] {
            stops.map { stop in
                let promise = stop.promise.flatMap { handle in promises.first { $0.value.isSame(as: handle) }?.key } ?? "-"
                let task = stop.task.flatMap { handle in tasks.first { $0.value == handle }?.key } ?? "-"
                return "\(promise)/\(task)"
            }
        }
    }

    // MARK: - Workers

    @Test func theFirstWaitingJob_asksForAWorker_andLaterOnesWaitForIt() {
        var fixture = Fixture()
        #expect(fixture.add("a", order: 0).startsWorker)
        #expect(!fixture.add("b", order: 1).startsWorker)
        #expect(!fixture.add("c", order: 2).startsWorker)
        #expect(fixture.registry.phases.waiting == 3)
        #expect(fixture.registry.demand.starting == 1)
    }

    @Test func aWorkerTakingAJobWithOthersWaiting_asksForOneMore_soABurstSpreads() {
        var fixture = Fixture()
        fixture.add("a", order: 0)
        fixture.add("b", order: 1)
        fixture.registry.workerBegins()
        let first = fixture.registry.take()
        #expect(first?.entry.name == "a")
        #expect(first?.startsWorker == true)
        #expect(fixture.registry.phases.onWorker == 1)
        #expect(fixture.registry.phases.waiting == 1)
        // The second worker takes "b"; nothing else waits, so it asks for nobody.
        fixture.registry.workerBegins()
        let second = fixture.registry.take()
        #expect(second?.entry.name == "b")
        #expect(second?.startsWorker == false)
    }

    @Test func aWorkerTakesJobsInDispatchOrder_untilNoneWaits_thenEnds() {
        var fixture = Fixture()
        fixture.add("a", order: 0)
        fixture.add("b", order: 1)
        #expect(fixture.beginAndTake() == "a")
        fixture.registry.end(fixture.token("a"))
        // A second worker was asked for; until it begins, this one takes "b" itself.
        #expect(fixture.registry.finishJobAndTakeNext()?.entry.name == "b")
        fixture.registry.end(fixture.token("b"))
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.demand.idle == 0)
        #expect(fixture.registry.count == 0)
    }

    @Test func aSynchronousBodyThatEnds_takesTheNextWaitingJobInTheSameLook_andTheLastHoldsItsWorkerUntilItsSettle() {
        var fixture = Fixture()
        fixture.add("a", order: 0, isAsync: false)
        fixture.add("b", order: 1, isAsync: false)
        #expect(fixture.beginAndTake() == "a")
        let first = fixture.registry.endOnWorker(fixture.token("a"), thenTakeNextOn: 0)
        #expect(first.cancellation == nil)
        #expect(first.next?.entry.name == "b")
        // The worker went from a to b without letting go: still one busy worker.
        #expect(fixture.registry.demand.busy == 1)
        #expect(fixture.registry.phases.onWorker == 1 && fixture.registry.phases.waiting == 0)
        let last = fixture.registry.endOnWorker(fixture.token("b"), thenTakeNextOn: 0)
        #expect(last.cancellation == nil && last.next == nil)
        // b's entry is gone, but its worker settles b's promise before it lets go.
        #expect(fixture.registry.count == 0)
        #expect(!fixture.registry.isIdle)
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.isIdle)
    }

    @Test func aFinishedSideEffect_isHeldOneAtATime_untilTheNextAddOrAWorkerGoingIdleTakesItOut() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 2)
        let first = Named(name: "ran first", order: 0, identity: nil, promise: fixture.promise("ran first"), isAsync: false, startsTaskWhenTaken: false)
        let second = Named(name: "ran second", order: 1, identity: nil, promise: fixture.promise("ran second"), isAsync: false, startsTaskWhenTaken: false)
        // The registry holds one: a second waits for none.
        let heldFirst = fixture.registry.hold(forTheNextAdd: first)
        let heldSecond = fixture.registry.hold(forTheNextAdd: second)
        #expect(heldFirst && !heldSecond)
        #expect(fixture.registry.heldForTheNextAdd === first)
        // The thread adding the next one takes it out, and none is held after.
        #expect(fixture.registry.takeHeld() === first)
        #expect(fixture.registry.heldForTheNextAdd == nil)
        #expect(fixture.registry.takeHeld() == nil)
        fixture.add("j2", order: 2)
        fixture.add("j3", order: 3)
        // A worker going idle takes out the one held too.
        let heldAgain = fixture.registry.hold(forTheNextAdd: second)
        #expect(heldAgain)
        #expect(fixture.registry.takeHeld() === second)
        #expect(fixture.registry.heldForTheNextAdd == nil)
        // Holding is no part of the counts.
        #expect(fixture.registry.count == 4)
    }

    @Test func aJobArrivingWhileAWorkerIsBusy_asksForAnother_soABlockedBodyHoldsNothingUp() {
        var fixture = Fixture()
        fixture.add("blocked", order: 0)
        #expect(fixture.beginAndTake() == "blocked")
        // The worker is inside "blocked": it is neither idle nor starting.
        #expect(fixture.add("next", order: 1).startsWorker)
    }

    @Test func aWorkerSkipsJobsCancelledWhileTheyWaited() {
        var fixture = Fixture()
        fixture.add("a", order: 0)
        fixture.add("b", order: 1)
        _ = fixture.registry.cancel(promise: fixture.promise("a"), cutBefore: nil)
        #expect(fixture.beginAndTake() == "b")
    }

    // MARK: - Width and stalls

    @Test func aBurst_runsOnAtMostWidthWorkers_andAsksForTheMonitorOnce() {
        var fixture = Fixture()
        #expect(fixture.add("a", order: 0).startsWorker)
        for order in 1 ..< 10 as Range<UInt64> {
            #expect(!fixture.add("j\(order)", order: order).startsWorker)
        }
        let taken = fixture.beginAndTake(onThreads: 11, 12)
        #expect(taken[0]?.startsWorker == true)
        let second = taken[1]
        // Two jobs run: the width is reached; the monitor is asked for, once.
        #expect(second?.startsWorker == false)
        #expect(second?.startsMonitor == true)
        #expect(fixture.registry.demand.isMonitoring)
        #expect(fixture.add("late", order: 10).startsMonitor == false)
    }

    @Test func twoTicksThatFindJobsAsleep_markThemBlocked_andStartWorkersForThoseWaiting() {
        var fixture = Fixture()
        fixture.add("blocked1", order: 0)
        fixture.add("blocked2", order: 1)
        fixture.addJobs(2 ..< 10)
        fixture.beginAndTake(onThreads: 11, 12)
        var asked: [Int32] = []
        let first = fixture.registry.monitorTick { thread in
            asked.append(thread)
            return true
        }
        #expect(asked.sorted() == [11, 12])
        // Asleep at one look only: it may have been waiting for a lock. It looks again soon.
        #expect(first == .init(startsWorkers: 0, keepsTicking: true, looksAgainSoon: true))
        #expect(fixture.registry.demand.blocked == 0)
        let second = fixture.registry.monitorTick { _ in true }
        #expect(fixture.registry.demand.blocked == 2)
        // Two places freed: two workers for the eight waiting; the monitor keeps ticking.
        #expect(second == .init(startsWorkers: 2, keepsTicking: true))
    }

    @Test func aJobAsleepAtOneLookButNotTheNext_keepsItsPlace() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 4)
        fixture.beginAndTake(onThreads: 11, 12)
        _ = fixture.registry.monitorTick { _ in true }
        _ = fixture.registry.monitorTick { _ in false }
        _ = fixture.registry.monitorTick { _ in true }
        #expect(fixture.registry.demand.blocked == 0)
    }

    @Test func aJobThatRuns_orWaitsForACore_keepsItsPlace() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 4)
        fixture.beginAndTake(onThreads: 11, 12)
        let tick = fixture.registry.monitorTick { _ in false }
        #expect(fixture.registry.demand.blocked == 0)
        #expect(tick == .init(startsWorkers: 0, keepsTicking: true))
    }

    @Test func aJobTakenSinceThePreviousTick_isNotLookedAtYet() {
        var fixture = Fixture()
        _ = fixture.registry.monitorTick { _ in true }
        fixture.addJobs(0 ..< 3)
        fixture.beginAndTake(onThreads: 11, 12)
        var asked = 0
        // The jobs were taken at this tick: the next one looks at them (and the one after, twice asleep, marks them).
        _ = fixture.registry.monitorTick { _ in asked += 1; return true }
        #expect(asked == 2)
        _ = fixture.registry.monitorTick { _ in true }
        #expect(fixture.registry.demand.blocked == 2)
    }

    @Test func aThreadWhoseStateIsUnknown_countsAsBlocked_onlyOnceItHasBeenOnItsWorkerLonger() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 3)
        fixture.beginAndTake(onThreads: 0, 0)
        // A job whose state nobody can tell may be a short one still finishing: not yet.
        for _ in 1 ..< WorkerDemand.ticksBeforeAssumingBlocked {
            #expect(fixture.registry.monitorTick { _ in nil }.startsWorkers == 0)
        }
        #expect(fixture.registry.monitorTick { _ in nil }.startsWorkers == 1)
        #expect(fixture.registry.demand.blocked == 2)
    }

    @Test func eachJobAssumedBlocked_makesTheNextAssumptionWaitLonger() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 6)
        fixture.beginAndTake(onThreads: 0, 0)
        var ticks = 0
        // The first two (the width) are assumed blocked after the usual ticks...
        while fixture.registry.demand.blocked < 2, ticks < 100 {
            _ = fixture.registry.monitorTick { _ in nil }
            ticks += 1
        }
        #expect(ticks == Int(WorkerDemand.ticksBeforeAssumingBlocked))
        // ...the next two, taken by the workers they freed, one tick later.
        fixture.beginAndTake(onThreads: 0, 0)
        var more = 0
        while fixture.registry.demand.blocked < 4, more < 100 {
            _ = fixture.registry.monitorTick { _ in nil }
            more += 1
        }
        #expect(more == Int(WorkerDemand.ticksBeforeAssumingBlocked) + 1)
    }

    @Test func aJobWhoseThreadAnnouncesAWait_freesItsPlaceAtOnce_andTakesItBackWhenItWakes() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 3)
        fixture.beginAndTake(onThreads: 11, 12)
        #expect(fixture.registry.demand.running == 2 && !fixture.registry.demand.hasRoom)
        // No monitor, no tick: the announcement alone starts a worker for the waiting job.
        #expect(fixture.registry.waitBegan(onWorker: 11) == 1)
        #expect(fixture.registry.demand.blocked == 1)
        // A worker with no job, or a second announcement, changes nothing.
        #expect(fixture.registry.waitBegan(onWorker: 99) == 0 && fixture.registry.waitBegan(onWorker: 11) == 0)
        fixture.registry.waitEnded(onWorker: 11)
        #expect(fixture.registry.demand.blocked == 0 && fixture.registry.demand.running == 2)
        #expect(fixture.registry.invariantViolations().isEmpty)
    }

    @Test func theMonitorAndAnAnnouncedWait_findTheJobsOnWorkers_inSlotsFreedAndTakenAgain() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 300)
        // Two jobs run and end; their slots go to two new ones, which wait behind the rest.
        for taken in fixture.beginAndTake(onThreads: 11, 12) {
            if let taken { fixture.registry.end(taken.token) }
        }
        fixture.addJobs(300 ..< 302)
        #expect(fixture.registry.finishJobAndTakeNext(onThread: 11)?.entry.name == "j2")
        #expect(fixture.registry.finishJobAndTakeNext(onThread: 12)?.entry.name == "j3")
        #expect(fixture.registry.takenStillOnWorkers().map(\.slot).sorted() == [fixture.token("j2").slot, fixture.token("j3").slot])
        var asked: [Int32] = []
        _ = fixture.registry.monitorTick { _ in false }
        _ = fixture.registry.monitorTick { thread in
            asked.append(thread)
            return false
        }
        // Only the two jobs on workers are asked about, of 300 side effects.
        #expect(asked.sorted() == [11, 12])
        _ = fixture.registry.waitBegan(onWorker: 12)
        #expect(fixture.registry.demand.blocked == 1)
        #expect(fixture.registry.invariantViolations().isEmpty)
    }

    @Test func theListOfJobsTaken_staysShort_whileThousandsPassThroughAWorker() {
        var fixture = Fixture()
        fixture.addJobs(0 ..< 2_001)
        // One job stays on worker 11 throughout; 2,000 pass through worker 12, one after another.
        var taken = fixture.beginAndTake(onThreads: 11, 12)[1]
        var longest = 0
        while let job = taken {
            fixture.registry.end(job.token)
            taken = fixture.registry.finishJobAndTakeNext(onThread: 12)
            longest = max(longest, fixture.registry.taken.tokens.count)
        }
        // Pruned at each limit: about twice the jobs on workers, plus the slack.
        #expect(longest <= 2 + TakenList<SideEffectRegistry<Named>.Token>.slack)
        #expect(fixture.registry.takenStillOnWorkers().map(\.slot) == [fixture.token("j0").slot])
        var asked: [Int32] = []
        _ = fixture.registry.monitorTick { _ in false }
        _ = fixture.registry.monitorTick { thread in
            asked.append(thread)
            return false
        }
        #expect(asked == [11])
        #expect(fixture.registry.invariantViolations().isEmpty)
    }

    @Test func aStalledJobThatEnds_freesItsPlace_andTheMonitorStopsWhenNothingWaits() {
        var fixture = Fixture()
        fixture.add("blocked", order: 0)
        fixture.add("short", order: 1)
        fixture.add("next", order: 2)
        let blocked = fixture.beginAndTake(onThreads: 11, 12)[0]
        _ = fixture.registry.monitorTick { $0 == 11 }
        #expect(fixture.registry.monitorTick { $0 == 11 } == .init(startsWorkers: 1, keepsTicking: false))
        #expect(fixture.registry.demand.blocked == 1)
        #expect(!fixture.registry.demand.isMonitoring)
        if let blocked {
            fixture.registry.end(blocked.token)
        }
        #expect(fixture.registry.demand.blocked == 0)
    }

    // MARK: - Async side effects

    @Test func anAsyncSideEffectWithoutInterceptors_isOnItsWorkerUntilItsTasksHandleArrives() {
        var fixture = Fixture()
        let added = fixture.add("a", order: 0, startsTask: true)
        #expect(added.startsWorker)
        #expect(fixture.registry.phases.waiting == 1)
        #expect(!fixture.registry.isIdleOnWorkers)
        #expect(fixture.beginAndTake() == "a")
        // Its body runs on the worker until it first suspends: it counts there, against the width.
        #expect(fixture.registry.phases.onWorker == 1 && fixture.registry.phases.task == 0)
        #expect(fixture.registry.demand.running == 1)
        #expect(!fixture.registry.isIdleOnWorkers)
        let (cancelNow, next) = fixture.registry.attach(fixture.task("ta"), to: fixture.token("a"), thenTakeNextOn: 0)
        #expect(cancelNow == nil && next == nil)
        #expect(fixture.registry.phases.task == 1 && fixture.registry.demand.running == 0)
        #expect(fixture.registry.isIdleOnWorkers)
        #expect(!fixture.registry.isIdle)
        #expect(fixture.registry.endTask(fixture.token("a")) == nil)
        #expect(fixture.registry.count == 0)
    }

    @Test func aSynchronousJobThatEnded_keepsTheStoreBusy_untilItsWorkerHasSettledItsPromise() {
        var fixture = Fixture()
        fixture.add("a", order: 0, isAsync: false)
        #expect(fixture.beginAndTake() == "a")
        #expect(fixture.registry.end(fixture.token("a")) == nil)
        // Gone (whoever sees its promise settled sees it gone), but its worker settles the
        // promise before it lets go.
        #expect(fixture.registry.count == 0)
        #expect(!fixture.registry.isIdleOnWorkers)
        #expect(!fixture.registry.isIdle)
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.isIdleOnWorkers)
        #expect(fixture.registry.isIdle)
    }

    @Test func aTaskThatEnded_keepsTheStoreBusy_untilItsPromiseHasSettled() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        #expect(fixture.registry.attach(fixture.task("ta"), to: fixture.token("a"), thenTakeNextOn: 0).next == nil)
        #expect(!fixture.registry.isIdle)
        #expect(fixture.registry.endTask(fixture.token("a")) == nil)
        #expect(fixture.registry.count == 0)
        #expect(fixture.registry.phases.task == 0)
        #expect(!fixture.registry.isIdleOnWorkers)
        #expect(!fixture.registry.isIdle)
        fixture.registry.taskSettled()
        #expect(fixture.registry.isIdleOnWorkers)
        #expect(fixture.registry.isIdle)
    }

    @Test func aTaskThatEndedDuringItsStart_endsOnItsWorker_whichHoldsIt_untilItLooksAgain() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        let (cancellation, next) = fixture.registry.endOnWorker(fixture.token("a"), thenTakeNextOn: 0)
        #expect(cancellation == nil && next == nil)
        #expect(fixture.registry.count == 0)
        #expect(fixture.registry.phases.task == 0)
        // Gone, but its worker settles its promise before it lets go.
        #expect(!fixture.registry.isIdleOnWorkers)
        #expect(!fixture.registry.isIdle)
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.isIdle)
    }

    @Test func aTaskThatEndedDuringItsStart_takesTheNextJobForItsWorker_inTheSameLook() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        fixture.add("b", order: 1, startsTask: true)
        let (cancellation, next) = fixture.registry.endOnWorker(fixture.token("a"), thenTakeNextOn: 0)
        #expect(cancellation == nil)
        #expect(next?.entry.name == "b")
        #expect(fixture.registry.count == 1)
        #expect(fixture.registry.phases.onWorker == 1)
        #expect(fixture.registry.phases.waiting == 0)
        // The worker holds b now: one busy worker, as before.
        #expect(fixture.registry.demand.busy == 1)
        #expect(fixture.registry.endOnWorker(fixture.token("b"), thenTakeNextOn: 0).next == nil)
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.isIdle)
    }

    @Test func aTaskCancelledBeforeItEndedDuringItsStart_reportsItsCancellation() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0, id: "search")
        #expect(fixture.names(fixture.registry.cancel(id: "search", before: 1, leavingCut: false)) == ["a/-"])
        let (cancellation, next) = fixture.registry.endOnWorker(fixture.token("a"), thenTakeNextOn: 0)
        #expect(cancellation == .id && next == nil)
        #expect(fixture.registry.count == 0)
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.isIdle)
    }

    @Test func aTaskThatEndedDuringItsStart_whileAShutdownCounts_isCountedHandled() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        fixture.registry.beginShutdown()
        #expect(fixture.registry.endOnWorker(fixture.token("a"), thenTakeNextOn: 0).cancellation == nil)
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.giveUp().counts == .init(handled: 1, cancelled: 0, stillRunning: 0))
    }

    @Test func anAsyncSideEffectThroughAWorker_movesFromWorkerToTask_whenItsHandleArrives() {
        var fixture = Fixture()
        fixture.add("a", order: 0)
        #expect(fixture.beginAndTake() == "a")
        #expect(!fixture.registry.isIdleOnWorkers)
        #expect(fixture.registry.startTask(fixture.token("a")) == nil)
        #expect(fixture.registry.phases.onWorker == 1)
        #expect(fixture.registry.attach(fixture.task("ta"), to: fixture.token("a")) == nil)
        #expect(fixture.registry.phases.task == 1)
        #expect(!fixture.registry.isIdleOnWorkers)
        #expect(fixture.registry.finishJobAndTakeNext() == nil)
        #expect(fixture.registry.isIdleOnWorkers)
    }

    @Test func aBodyThatEndsBeforeItsHandleArrives_leavesNothingForTheAttach() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        fixture.registry.end(fixture.token("a"))
        #expect(fixture.registry.attach(fixture.task("ta"), to: fixture.token("a")) == nil)
        // The slot is reused; the old token names nothing in it.
        fixture.addTask("b", order: 1)
        #expect(fixture.registry.attach(fixture.task("ta"), to: fixture.token("a")) == nil)
        #expect(fixture.registry.attach(fixture.task("tb"), to: fixture.token("b")) == nil)
    }

    // MARK: - Cancelling by promise

    @Test func cancellingAWaitingOne_removesIt_withItsPromise() {
        var fixture = Fixture()
        fixture.add("a", order: 0)
        let stop = fixture.registry.cancel(promise: fixture.promise("a"), cutBefore: nil)
        #expect(fixture.names(stop.map { [$0] } ?? []) == ["a/-"])
        #expect(fixture.registry.count == 0)
    }

    @Test func cancellingARunningTask_marksIt_untilItsBodyEnds_andTheEndReportsTheCancellation() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        #expect(fixture.registry.attach(fixture.task("ta"), to: fixture.token("a")) == nil)
        let stop = fixture.registry.cancel(promise: fixture.promise("a"), cutBefore: nil)
        #expect(fixture.names(stop.map { [$0] } ?? []) == ["a/ta"])
        #expect(fixture.registry.count == 1)
        #expect(fixture.registry.isCancelled(fixture.token("a")))
        // Cancelling again does nothing.
        #expect(fixture.registry.cancel(promise: fixture.promise("a"), cutBefore: nil) == nil)
        #expect(fixture.registry.end(fixture.token("a")) == .promise)
    }

    @Test func aCancellationBeforeTheHandle_handsTheTaskBackToBeCancelledAtTheAttach() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        let stop = fixture.registry.cancel(promise: fixture.promise("a"), cutBefore: nil)
        #expect(fixture.names(stop.map { [$0] } ?? []) == ["a/-"])
        #expect(fixture.registry.attach(fixture.task("ta"), to: fixture.token("a")) == fixture.task("ta"))
    }

    @Test func aCancellationWhileItsInterceptorsRun_keepsItsTaskFromStarting() {
        var fixture = Fixture()
        fixture.add("a", order: 0)
        #expect(fixture.beginAndTake() == "a")
        _ = fixture.registry.cancel(promise: fixture.promise("a"), cutBefore: nil)
        #expect(fixture.registry.startTask(fixture.token("a")) == .promise)
        #expect(fixture.registry.count == 0)
    }

    @Test func aPromiseCancelledOnItsWayFromTheInbox_leavesACut_thatRefusesItWhenAdded() {
        var fixture = Fixture()
        let promise = fixture.promise("a")
        #expect(fixture.registry.cancel(promise: promise, cutBefore: 5) == nil)
        #expect(fixture.registry.cuts.count == 1)
        let added = fixture.add("a", order: 3)
        #expect(added.token == nil)
        #expect(added.refusal == .promise)
        #expect(fixture.registry.count == 0)
    }

    @Test func newSideEffectsAreTakenAsTheyAre_unlessACutWaits_orAShutdownCancels() {
        // What a synchronous side effect dispatched to an idle store asks before it gets its entry
        // under the inbox's lock: otherwise it goes the usual way, which refuses it.
        var fixture = Fixture()
        #expect(fixture.registry.takesNewOnesAsTheyAre)
        _ = fixture.registry.cancel(promise: fixture.promise("a"), cutBefore: 5)
        #expect(!fixture.registry.takesNewOnesAsTheyAre)
        fixture.add("b", order: 5)
        #expect(fixture.registry.takesNewOnesAsTheyAre)
        fixture.registry.beginShutdown()
        #expect(fixture.registry.takesNewOnesAsTheyAre)
        _ = fixture.registry.cancelForShutdown()
        #expect(!fixture.registry.takesNewOnesAsTheyAre)
    }

    // MARK: - Cancelling by id, latest wins

    @Test func cancelByID_stopsEveryOneOfThatIDDispatchedBefore_inDispatchOrder_andNoOther() {
        var fixture = Fixture()
        fixture.add("s1", order: 0, id: "search")
        #expect(fixture.beginAndTake() == "s1")
        fixture.addTask("s2", order: 1, id: "search")
        fixture.add("other", order: 2, id: "save")
        let stops = fixture.registry.cancel(id: "search", before: 3, leavingCut: false)
        #expect(fixture.names(stops) == ["s1/-", "s2/-"])
        // Dispatched after the call: not affected.
        #expect(fixture.add("s3", order: 3, id: "search").token != nil)
        #expect(fixture.registry.cancel(id: "search", before: 3, leavingCut: false).isEmpty)
    }

    @Test func cancelByID_leavesACutForThoseOnTheirWay_whichLaterDispatchesPass() {
        var fixture = Fixture()
        _ = fixture.registry.cancel(id: "search", before: 10, leavingCut: true)
        // Taken before the call, added after it: refused.
        #expect(fixture.add("early", order: 4, id: "search").refusal == .id)
        // Another id passes.
        #expect(fixture.add("other", order: 5, id: "save").token != nil)
        #expect(fixture.registry.cuts.count == 1)
        // Dispatched after the call: runs, and the cut is done.
        #expect(fixture.add("late", order: 10, id: "search").token != nil)
        #expect(fixture.registry.cuts.count == 0)
    }

    @Test func repeatedCancelsOfOneID_keepOneCut() {
        var fixture = Fixture()
        for before in 1 ... 100 as ClosedRange<UInt64> {
            _ = fixture.registry.cancel(id: "search", before: before, leavingCut: true)
        }
        #expect(fixture.registry.cuts.count == 1)
        #expect(fixture.add("x", order: 99, id: "search").refusal == .id)
    }

    @Test func latestWins_cancelsTheOlderOnesOfItsID_waitingOrRunning_inDispatchOrder() {
        var fixture = Fixture()
        fixture.addTask("s1", order: 0, id: "search", latestWins: false)
        #expect(fixture.registry.attach(fixture.task("t1"), to: fixture.token("s1")) == nil)
        fixture.addTask("s2", order: 1, id: "search", latestWins: false)
        fixture.add("s3", order: 2, id: "search")
        fixture.add("save", order: 3, id: "save", latestWins: true)
        // s4 cancels the two not cancelled yet (s1 and s2, running; s3, waiting), oldest first.
        let s4 = fixture.add("s4", order: 4, id: "search", latestWins: true)
        #expect(fixture.names(s4.cancelling) == ["s1/t1", "s2/-", "s3/-"])
        #expect(s4.cancelling.allSatisfy { $0.reason == .latestWins })
        // s3 was waiting: gone. s1 and s2 run until their bodies end, and say who cancelled them.
        #expect(fixture.registry.count == 4)
        #expect(fixture.registry.endTask(fixture.token("s1")) == .latestWins)
        #expect(fixture.beginAndTake() == "save")
    }

    @Test func aNewerOneWithoutLatestWins_leavesTheOlderOnesRunning() {
        var fixture = Fixture()
        fixture.addTask("s1", order: 0, id: "search", latestWins: true)
        let added = fixture.add("s2", order: 1, id: "search", latestWins: false, startsTask: true)
        #expect(added.cancelling.isEmpty)
        #expect(fixture.registry.count == 2)
    }

    // MARK: - Shutdown

    @Test func aShutdownCounts_whatEndsAsHandled_andWhatIsCancelledAsCancelled() {
        var fixture = Fixture()
        fixture.addTask("done", order: 0)
        fixture.add("cancelled", order: 1)
        fixture.registry.beginShutdown()
        fixture.registry.end(fixture.token("done"))
        _ = fixture.registry.cancel(promise: fixture.promise("cancelled"), cutBefore: nil)
        let (counts, stops) = fixture.registry.giveUp()
        #expect(counts == .init(handled: 1, cancelled: 1, stillRunning: 0))
        #expect(stops.isEmpty)
    }

    @Test func cancellingForShutdown_dropsWaitingOnes_cancelsAsyncOnes_andLeavesRunningBodies() {
        var fixture = Fixture()
        fixture.add("syncRunning", order: 0, isAsync: false)
        #expect(fixture.beginAndTake() == "syncRunning")
        fixture.addTask("asyncTask", order: 1)
        fixture.add("asyncOnWorker", order: 2)
        fixture.registry.workerBegins()
        #expect(fixture.take() == "asyncOnWorker")
        fixture.add("waiting", order: 3, isAsync: false)
        fixture.registry.beginShutdown()
        let stops = fixture.registry.cancelForShutdown()
        #expect(fixture.names(stops) == ["asyncTask/-", "asyncOnWorker/-", "waiting/-"])
        #expect(stops.allSatisfy { $0.reason == .shutdown })
        // New ones are refused.
        #expect(fixture.add("late", order: 4).refusal == .shutdown)
        // The interceptors' worker finds its side effect cancelled: no task.
        #expect(fixture.registry.startTask(fixture.token("asyncOnWorker")) == .shutdown)
        // The synchronous body finishes and counts as handled; the task ends cancelled.
        #expect(fixture.registry.end(fixture.token("syncRunning")) == nil)
        #expect(fixture.registry.end(fixture.token("asyncTask")) == .shutdown)
        let (counts, _) = fixture.registry.giveUp()
        // asyncOnWorker, waiting and late were cancelled before they ran, asyncTask while it ran.
        #expect(counts == .init(handled: 1, cancelled: 4, stillRunning: 0))
    }

    @Test func givingUp_countsWhatStillRuns_andHandsBackThePromisesNotRejectedYet() {
        var fixture = Fixture()
        fixture.add("stuckSync", order: 0, isAsync: false)
        #expect(fixture.beginAndTake() == "stuckSync")
        fixture.addTask("stuckTask", order: 1)
        fixture.registry.beginShutdown()
        let cancelled = fixture.registry.cancelForShutdown()
        #expect(fixture.names(cancelled) == ["stuckTask/-"])
        let (counts, stops) = fixture.registry.giveUp()
        #expect(counts == .init(handled: 0, cancelled: 0, stillRunning: 2))
        // The task's promise was rejected when it was cancelled; the synchronous body's now.
        #expect(fixture.names(stops) == ["stuckSync/-"])
        // Their ends later count nothing, and report the cancellation.
        #expect(fixture.registry.end(fixture.token("stuckSync")) == .shutdown)
        #expect(fixture.registry.end(fixture.token("stuckTask")) == .shutdown)
        #expect(fixture.add("after", order: 2).refusal == .shutdown)
    }

    @Test func oneCancelledBeforeTheShutdown_isLeftOutOfItsCounts_butCountsAsStillRunningIfItIs() {
        var fixture = Fixture()
        fixture.addTask("cancelledEarly", order: 0)
        fixture.addTask("stuck", order: 1)
        _ = fixture.registry.cancel(promise: fixture.promise("cancelledEarly"), cutBefore: nil)
        _ = fixture.registry.cancel(promise: fixture.promise("stuck"), cutBefore: nil)
        fixture.registry.beginShutdown()
        // Its body ends during the shutdown: its caller saw it rejected before; nothing is counted.
        #expect(fixture.registry.end(fixture.token("cancelledEarly")) == .promise)
        let (counts, stops) = fixture.registry.giveUp()
        #expect(counts == .init(handled: 0, cancelled: 0, stillRunning: 1))
        #expect(stops.isEmpty)
    }

    @Test func withoutAShutdown_nothingIsCounted() {
        var fixture = Fixture()
        fixture.addTask("a", order: 0)
        fixture.registry.end(fixture.token("a"))
        fixture.registry.beginShutdown()
        let (counts, _) = fixture.registry.giveUp()
        #expect(counts == .init())
    }

    @Test func aReplacementHandedElsewhere_leavesUncounted() {
        var fixture = Fixture()
        fixture.add("a", order: 0)
        fixture.registry.beginShutdown()
        #expect(fixture.beginAndTake() == "a")
        fixture.registry.handOver(fixture.token("a"))
        #expect(fixture.registry.count == 0)
        #expect(fixture.registry.giveUp().counts == .init())
    }

    // MARK: - Storage

    @Test func aSteadyStream_reusesSlots_andKeepsTheQueueShort() {
        var fixture = Fixture()
        for round in 0 ..< 2_000 as Range<UInt64> {
            #expect(fixture.add("job", order: round).startsWorker)
            fixture.registry.workerBegins()
            let taken = fixture.registry.take()
            #expect(taken?.entry.name == "job")
            if let taken { fixture.registry.end(taken.token) }
            #expect(fixture.registry.finishJobAndTakeNext() == nil)
        }
        #expect(fixture.registry.slots.count == 1)
        #expect(fixture.registry.waitingQueue.count <= SideEffectRegistry<Named>.compactionThreshold)
    }
}
