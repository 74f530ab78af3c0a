import Testing
@testable import Katana
import KatanaTestSupport

/// Work is numbered; threads are known by a letter.
private typealias PoolState = WorkerThreadsState<Int, String>

/// The counts, in the order threads, idle, busy, blocked, queued.
private func counts(_ threads: Int, idle: Int = 0, busy: Int = 0, blocked: Int = 0, queued: Int = 0) -> WorkerThreadsStatistics {
    WorkerThreadsStatistics(threads: threads, idle: idle, busy: busy, blocked: blocked, queued: queued)
}

/// A pool whose threads `names` have each run one item of work and now wait, idled in that order.
private func idleThreads(_ names: [String], maximumThreads: Int = 4) -> PoolState {
    var state = PoolState(maximumThreads: maximumThreads)
    for (number, _) in names.enumerated() {
        _ = state.submit(number)
    }
    for name in names {
        #expect(state.finished(name).isWait)
    }
    return state
}

/// A pool of `maximumThreads` threads, all busy (running work 1, 2, …), none queued.
private func fullPool(maximumThreads: Int) -> PoolState {
    var state = PoolState(maximumThreads: maximumThreads)
    for number in 1...maximumThreads {
        #expect(state.submit(number).startedWork == number)
    }
    return state
}

/// The worker-thread pool's bookkeeping, without threads: who gets work, when a thread starts,
/// waits or exits.
@Suite struct WorkerThreadsStateTests {
    // MARK: - Submitting

    @Test func workWithNoThread_startsAThreadThatRunsIt() {
        var state = PoolState(maximumThreads: 4)
        #expect(state.submit(1).startedWork == 1)
        #expect(state.statistics == counts(1, busy: 1))
    }

    @Test func workWithEveryThreadBusyBelowTheCap_startsAnotherThread() {
        let state = fullPool(maximumThreads: 3)
        #expect(state.statistics == counts(3, busy: 3))
    }

    @Test func workWithAnIdleThread_isHandedToIt_andStartsNoThread() {
        var state = idleThreads(["a"])
        #expect(state.statistics == counts(1, idle: 1))
        #expect(state.submit(7).wokenThread == "a")
        // Handed, not yet awake: busy already, so the next work does not go to it too.
        #expect(state.statistics == counts(1, busy: 1))
        #expect(state.woke("a").work == 7)
    }

    @Test func workWithSeveralIdleThreads_goesToTheOneIdledLast() {
        var state = idleThreads(["a", "b", "c"])
        #expect(state.submit(10).wokenThread == "c")
        #expect(state.submit(11).wokenThread == "b")
        #expect(state.submit(12).wokenThread == "a")
        #expect(state.statistics == counts(3, busy: 3))
        // No thread is idle any more: the next work starts a fourth (the cap is 4).
        #expect(state.submit(13).startedWork == 13)
    }

    @Test func workAtTheCap_isQueued_andStartsNoThread() {
        var state = fullPool(maximumThreads: 2)
        #expect(state.submit(3).isNone)
        #expect(state.submit(4).isNone)
        #expect(state.statistics == counts(2, busy: 2, queued: 2))
    }

    @Test func aCapBelowOne_allowsOneThread() {
        var state = PoolState(maximumThreads: 0)
        #expect(state.maximumThreads == 1)
        #expect(state.submit(1).startedWork == 1)
        #expect(state.submit(2).isNone)
    }

    // MARK: - Finishing

    @Test func aThreadFinishingWithWorkQueued_takesTheOldest_inSubmissionOrder() {
        var state = fullPool(maximumThreads: 1)
        for number in 2...5 {
            _ = state.submit(number)
        }
        var ran: [Int] = []
        while let work = state.finished("a").work {
            ran.append(work)
        }
        #expect(ran == [2, 3, 4, 5])
        #expect(state.statistics == counts(1, idle: 1))
    }

    @Test func aThreadFinishingWithNothingQueued_becomesIdle() {
        var state = fullPool(maximumThreads: 2)
        #expect(state.finished("a").isWait)
        #expect(state.statistics == counts(2, idle: 1, busy: 1))
    }

    @Test func aLongQueue_keepsItsOrderAcrossCompaction() {
        var state = fullPool(maximumThreads: 1)
        let count = PoolState.compactionThreshold * 3
        for number in 2...count {
            _ = state.submit(number)
        }
        var ran: [Int] = []
        // Submissions keep arriving while the thread takes work: the queue never empties at once.
        for number in (count + 1)...(count + 100) {
            if let work = state.finished("a").work { ran.append(work) }
            _ = state.submit(number)
        }
        while let work = state.finished("a").work {
            ran.append(work)
        }
        #expect(ran == Array(2...(count + 100)))
        #expect(state.statistics == counts(1, idle: 1))
    }

    // MARK: - Waking and timing out

    @Test func anIdleThreadWokenWithoutAHandOff_waitsAgain() {
        var state = idleThreads(["a"])
        // A signal left over from an earlier race: nothing for it, and it stays idle.
        #expect(state.woke("a").isWait)
        #expect(state.statistics == counts(1, idle: 1))
        #expect(state.submit(1).wokenThread == "a")
    }

    @Test func anIdleThreadTimingOut_exits() {
        var state = idleThreads(["a", "b"])
        #expect(state.timedOut("a").isExit)
        #expect(state.statistics == counts(1, idle: 1))
        #expect(state.timedOut("b").isExit)
        #expect(state.statistics == counts(0))
        // With no thread left, new work starts one.
        #expect(state.submit(1).startedWork == 1)
    }

    @Test func anIdleThreadTimingOutAfterWorkWasHandedToIt_runsThatWork_andTheLeftoverSignalIsHarmless() {
        var state = idleThreads(["a"])
        #expect(state.submit(5).wokenThread == "a")
        // Its wait ended before the signal came; the state, not the timing, decides.
        #expect(state.timedOut("a").work == 5)
        #expect(state.statistics == counts(1, busy: 1))
        #expect(state.finished("a").isWait)
        // The signal arrives late: the thread finds nothing for it and keeps waiting.
        #expect(state.woke("a").isWait)
        #expect(state.statistics == counts(1, idle: 1))
        #expect(state.timedOut("a").isExit)
        #expect(state.statistics == counts(0))
    }

    @Test func anIdleThreadThatTimedOut_isNoLongerHandedWork() {
        var state = idleThreads(["a", "b"])
        #expect(state.timedOut("b").isExit)
        #expect(state.submit(1).wokenThread == "a")
        #expect(state.submit(2).startedWork == 2)
    }

    // MARK: - Blocking

    @Test func aThreadBlockingWithWorkQueued_startsAThreadForTheOldest() {
        var state = fullPool(maximumThreads: 2)
        _ = state.submit(3)
        _ = state.submit(4)
        #expect(state.threadWillBlock().startedWork == 3)
        #expect(state.statistics == counts(3, busy: 2, blocked: 1, queued: 1))
        #expect(state.threadWillBlock().startedWork == 4)
        #expect(state.statistics == counts(4, busy: 2, blocked: 2))
    }

    @Test func aThreadBlockingWithNothingQueued_startsNoThread_butFreesASlotForLaterWork() {
        var state = fullPool(maximumThreads: 1)
        #expect(state.threadWillBlock().isNone)
        #expect(state.statistics == counts(1, blocked: 1))
        #expect(state.submit(2).startedWork == 2)
        #expect(state.statistics == counts(2, busy: 1, blocked: 1))
        #expect(state.submit(3).isNone)
    }

    @Test func aThreadUnblocking_countsAgainstTheCapAgain() {
        var state = fullPool(maximumThreads: 1)
        _ = state.threadWillBlock()
        _ = state.submit(2)
        state.threadDidUnblock()
        // Two unblocked threads, one above the cap: new work waits.
        #expect(state.statistics == counts(2, busy: 2))
        #expect(state.submit(3).isNone)
        #expect(state.statistics == counts(2, busy: 2, queued: 1))
        // Once both have finished there is one queued item to take, and then room again.
        #expect(state.finished("a").work == 3)
        #expect(state.finished("b").isWait)
        #expect(state.finished("a").isWait)
        #expect(state.statistics == counts(2, idle: 2))
    }

    @Test func workThatBlocksOnTheNextWork_alwaysGetsAThreadForIt_whateverTheCap() {
        // Side effects that each wait for the one they dispatch: every one must start.
        var state = PoolState(maximumThreads: 2)
        for number in 1...256 {
            #expect(state.submit(number).startedWork == number)
            #expect(state.threadWillBlock().isNone)
        }
        #expect(state.statistics == counts(256, blocked: 256))
    }

    @Test func aBurstPastTheCap_startsAsThreadsBlock_inSubmissionOrder() {
        var state = fullPool(maximumThreads: 2)
        for number in 3...256 {
            #expect(state.submit(number).isNone)
        }
        var started: [Int] = []
        while let work = state.threadWillBlock().startedWork {
            started.append(work)
        }
        #expect(started == Array(3...256))
        // The last announcement found nothing queued; the two newest threads are still running.
        #expect(state.statistics == counts(256, busy: 1, blocked: 255))
    }
}

// MARK: - Reading actions

extension WorkerThreadsState.SubmitAction {
    fileprivate var startedWork: Work? {
        if case .startThread(let work) = self { return work }
        return nil
    }

    fileprivate var wokenThread: Worker? {
        if case .wake(let worker) = self { return worker }
        return nil
    }

    fileprivate var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}

extension WorkerThreadsState.NextStep {
    fileprivate var work: Work? {
        if case .run(let work) = self { return work }
        return nil
    }

    fileprivate var isWait: Bool {
        if case .wait = self { return true }
        return false
    }

    fileprivate var isExit: Bool {
        if case .exit = self { return true }
        return false
    }
}

extension WorkerThreadsState.BlockAction {
    fileprivate var startedWork: Work? {
        if case .startThread(let work) = self { return work }
        return nil
    }

    fileprivate var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
