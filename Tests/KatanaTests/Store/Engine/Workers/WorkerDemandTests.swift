@testable import Katana
import Testing

/// The one decision of when another worker starts, without threads: at most `width` workers run
/// jobs that are not blocked, and a job blocks by its thread's announcement or by the monitor's
/// finding, which both count the same way.
@Suite struct WorkerDemandTests {
    /// A demand with `busy` workers each running a job.
    private func demand(width: Int, busy: Int) -> WorkerDemand {
        var demand = WorkerDemand(width: width)
        for _ in 0 ..< busy {
            _ = demand.jobsWait(1)
            demand.workerBegins()
            demand.workerTook()
        }
        return demand
    }

    @Test func aWaitingJobGetsAWorker_whileTheWidthLeavesRoom() {
        var demand = WorkerDemand(width: 2)
        #expect(demand.jobsWait(1) == (true, false))
        // One is on its way: the next waiting job does not ask again.
        #expect(demand.jobsWait(2) == (false, false))
        #expect(demand.starting == 1)
    }

    @Test func atTheWidth_aWaitingJobStartsTheMonitorOnce() {
        var demand = demand(width: 2, busy: 2)
        #expect(!demand.hasRoom)
        #expect(demand.jobsWait(1) == (false, true))
        #expect(demand.isMonitoring)
        #expect(demand.jobsWait(2) == (false, false))
    }

    @Test func aBlockedJob_freesItsPlace_howeverItWasFoundBlocked() {
        var announced = demand(width: 2, busy: 2)
        announced.jobBlocked()
        #expect(announced.workersForBlocked(3) == 1)
        var seen = demand(width: 2, busy: 2)
        _ = seen.jobsWait(3)
        seen.jobBlocked()
        #expect(seen.monitorTicked(3) == (1, true))
        #expect(announced.running == seen.running && announced.blocked == seen.blocked)
    }

    @Test func aJobWhoseWaitEnded_countsAgainstTheWidthAgain() {
        var demand = demand(width: 1, busy: 1)
        demand.jobBlocked()
        #expect(demand.hasRoom)
        demand.jobUnblocked()
        #expect(!demand.hasRoom)
        #expect(demand.running == 1 && demand.blocked == 0)
    }

    @Test func aBlockedJobThatLeavesItsWorker_isNoLongerCountedBlocked() {
        var demand = demand(width: 1, busy: 1)
        demand.jobBlocked()
        demand.jobLeftWorker(wasBlocked: true)
        demand.workerFinished()
        #expect(demand.blocked == 0 && demand.running == 0 && demand.idle == 1)
    }

    @Test func theMonitorStops_whenNoJobWaitsForAWorker() {
        var demand = demand(width: 1, busy: 1)
        _ = demand.jobsWait(1)
        demand.jobBlocked()
        #expect(demand.monitorTicked(1) == (1, false))
        #expect(!demand.isMonitoring)
    }

    @Test(arguments: [
        (ticks: UInt32(0), asleep: true as Bool?, before: true, blocked: false),
        (ticks: 1, asleep: true, before: false, blocked: false),
        (ticks: 2, asleep: true, before: true, blocked: true),
        (ticks: 50, asleep: false, before: true, blocked: false),
        (ticks: 1, asleep: nil, before: false, blocked: false),
        (ticks: WorkerDemand.ticksBeforeAssumingBlocked - 1, asleep: nil, before: false, blocked: false),
        (ticks: WorkerDemand.ticksBeforeAssumingBlocked, asleep: nil, before: false, blocked: true),
    ])
    func aJobIsBlocked_whenAsleepAtTwoLooksInARow_orUnknownForLonger(ticks: UInt32, asleep: Bool?, before: Bool, blocked: Bool) {
        #expect(WorkerDemand(width: 2).isBlocked(onWorkerFor: ticks, asleep: asleep, asleepAtTheLookBefore: before) == blocked)
    }
}
