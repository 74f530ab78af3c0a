import Testing
@testable import Katana

private typealias PoolState = SideEffectPoolState<Int>

/// A pool state whose one worker (from the queue) is running job 1.
private func oneWorkerBusy() -> PoolState {
    var state = PoolState()
    _ = state.add(1)
    state.workerBegins(onOwnThread: false)
    _ = state.take()
    return state
}

/// The side-effect pool's bookkeeping, without threads: when a worker starts, and where.
@Suite struct SideEffectPoolStateTests {
    @Test func aJobWithNoWorker_startsOneOnTheQueue() {
        var state = PoolState()
        #expect(state.add(1) == .onQueue)
        #expect(state.queueWorkersStarting == 1)
    }

    @Test func jobsArrivingWhileAWorkerIsOnItsWay_startNoOtherWorker() {
        var state = PoolState()
        #expect(state.add(1) == .onQueue)
        #expect(state.add(2) == .none)
        #expect(state.add(3) == .none)
        #expect(state.waitingCount == 3)
    }

    @Test func aWorkerTakingAJobWithMoreWaiting_asksForAnotherWorker() {
        var state = PoolState()
        _ = state.add(1)
        _ = state.add(2)
        state.workerBegins(onOwnThread: false)
        let taken = state.take()
        #expect(taken.job == 1)
        // The only worker is busy with job 1 and job 2 waits: a second worker for it.
        #expect(taken.start == .onQueue)
    }

    @Test func workersTakeJobsInOrder_andStopWhenNoneIsLeft() {
        var state = PoolState()
        _ = state.add(1)
        _ = state.add(2)
        state.workerBegins(onOwnThread: false)
        var taken: [Int] = []
        var next = state.take()
        while let job = next.job {
            taken.append(job)
            state.finished()
            next = state.take()
        }
        #expect(taken == [1, 2])
        // The second worker it asked for finds nothing and stops.
        state.workerBegins(onOwnThread: false)
        #expect(state.take().job == nil)
        #expect(state.idleWorkers == 0)
        #expect(state.queueWorkersStarting == 0)
    }

    @Test func aWorkerBlockingWithNothingWaiting_startsNoWorker() {
        var state = oneWorkerBusy()
        #expect(state.workerWillBlock() == .none)
        #expect(state.blockedWorkers == 1)
    }

    @Test func aWorkerBlockingWhileAJobWaitsForAQueueWorker_startsAWorkerOnItsOwnThread() {
        var state = oneWorkerBusy()
        // Job 2 asks the queue for a worker; with every queue thread blocked it might never come.
        #expect(state.add(2) == .onQueue)
        #expect(state.workerWillBlock() == .onOwnThread)
        #expect(state.threadWorkersStarting == 1)
    }

    @Test func whileAWorkerIsBlocked_newJobsGetWorkersOnTheirOwnThreads() {
        var state = oneWorkerBusy()
        _ = state.workerWillBlock()
        #expect(state.add(2) == .onOwnThread)
        // That worker is on its way: the next job waits for it.
        #expect(state.add(3) == .none)
        state.workerBegins(onOwnThread: true)
        #expect(state.take() == (2, .onOwnThread))
    }

    @Test func onceNoWorkerIsBlocked_workersComeFromTheQueueAgain() {
        var state = oneWorkerBusy()
        _ = state.workerWillBlock()
        state.workerDidUnblock()
        #expect(state.blockedWorkers == 0)
        #expect(state.add(2) == .onQueue)
    }

    @Test func aLongStreamOfJobs_dropsTakenJobsWithoutLosingOrder() {
        var state = PoolState()
        var taken: [Int] = []
        let count = PoolState.compactionThreshold * 4
        _ = state.add(0)
        state.workerBegins(onOwnThread: false)
        for job in 1 ..< count {
            _ = state.add(job)
            if job.isMultiple(of: 2), let next = state.take().job {
                taken.append(next)
                state.finished()
            }
        }
        while let job = state.take().job {
            taken.append(job)
            state.finished()
        }
        #expect(taken == Array(0 ..< count))
    }
}
