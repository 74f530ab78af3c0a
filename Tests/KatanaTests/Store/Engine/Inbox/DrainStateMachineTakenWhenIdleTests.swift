import Testing
@testable import Katana
import KatanaTestSupport

/// A synchronous side effect dispatched to an idle store is taken in place, under the inbox's
/// lock: the machine lends its drainer only while idle and taking every item, and an item taken
/// that way counts as enqueued while the phase stays idle.
@Suite struct DrainStateMachineTakenWhenIdleTests {
    @Test(arguments: DrainPhaseName.allCases)
    func theDrainerIsLentOnlyWhileIdle(in phase: DrainPhaseName) {
        let setup = DrainMachineSetup(phase)
        let lent = setup.machine.drainerWhileIdle?.takeUnretainedValue()
        if phase == .idle {
            #expect(lent === setup.drainer)
        } else {
            #expect(lent == nil)
        }
    }

    @Test(arguments: [false, true])
    func anIdleStoreInAShutdown_lendsNoDrainer(takingStoreWork: Bool) {
        var setup = DrainMachineSetup(.idle)
        setup.machine.beginShutdown(takingStoreWork: takingStoreWork)
        #expect(setup.machine.drainerWhileIdle == nil)
        #expect(setup.phase == .idle)
    }

    @Test func anItemTakenInPlace_countsAsEnqueued_andTheStoreStaysIdle() {
        var setup = DrainMachineSetup(.idle)
        let before = setup.machine.enqueuedCount
        setup.machine.countTakenInPlace()
        setup.machine.countTakenInPlace()
        #expect(setup.machine.enqueuedCount == before + 2)
        #expect(setup.phase == .idle)
        #expect(setup.machine.waitingCount == 0)
        #expect(setup.machine.drainerWhileIdle?.takeUnretainedValue() === setup.drainer)
        // The next item from outside still finds the store idle and is handled as usual.
        guard case .scheduleDrain = setup.machine.enqueue(7) else {
            Issue.record("an idle store did not schedule a drain for the next item")
            return
        }
        #expect(setup.machine.enqueuedCount == before + 3)
    }
}
