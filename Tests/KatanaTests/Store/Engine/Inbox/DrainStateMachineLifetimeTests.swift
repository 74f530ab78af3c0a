import Testing
@testable import Katana
import KatanaTestSupport

/// The inbox's part in cancellation and shutdown: taking one waiting item out, the intake that a
/// shutdown narrows, and when the inbox counts as idle. Every phase, without threads.
@Suite struct DrainStateMachineLifetimeTests {
    /// The items waiting in each phase of ``DrainMachineSetup``.
    private static let waitingInSetup: [DrainPhaseName: [Int]] = [
        .starting: [1, 2], .idle: [], .scheduled: [1, 2], .draining: [1, 2],
        .drainingWithBlockQueued: [1, 2], .drainingThenStop: [], .stopped: [],
    ]

    private func enqueueName(_ action: consuming TestDrainMachine.EnqueueAction) -> String {
        switch consume action {
        case .none: return "none"
        case .scheduleDrain: return "scheduleDrain"
        case .reject(let item): return "reject(\(item))"
        case .refuse(let item): return "refuse(\(item))"
        case .handleHere(let start): return "handleHere(\(start.item))"
        }
    }

    @Test(arguments: DrainPhaseName.allCases)
    func removeWaiting_takesOutOnlyAWaitingItem_andKeepsThePhase(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        let waiting = Self.waitingInSetup[phase] ?? []
        let removed = setup.machine.removeWaiting { $0 == 2 }
        #expect(removed == (waiting.contains(2) ? 2 : nil))
        #expect(setup.machine.waitingCount == waiting.filter { $0 != 2 }.count)
        #expect(setup.phase == phase)
        // Never here at all: nothing is taken.
        #expect(setup.machine.removeWaiting { $0 == 42 } == nil)
    }

    @Test func removeAllWaiting_takesOutEveryMatch_andKeepsTheRestInOrder() {
        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        let total = SegmentedQueue<Int>.segmentCapacity + 500
        for item in 0..<total {
            _ = machine.enqueue(item)
        }
        let removed = machine.removeAllWaiting { $0.isMultiple(of: 3) }
        #expect(removed == (0..<total).filter { $0.isMultiple(of: 3) })
        #expect(machine.waitingCount == total - removed.count)
        #expect(machine.cancelWaiting() == (0..<total).filter { !$0.isMultiple(of: 3) })
    }

    @Test func isDraining_whileAThreadHoldsTheDrainer_handlingHereOrHelping_andNotOtherwise() {
        var idle = TestDrainMachine()
        #expect(!idle.isDraining)
        _ = idle.becomeReady(with: TestDrainer())
        #expect(!idle.isDraining)
        #expect(idle.restingDrainer != nil)
        #expect(enqueueName(idle.enqueue(1, handlingHereWhenIdle: true)) == "handleHere(1)")
        #expect(idle.isDraining)
        #expect(idle.restingDrainer == nil)

        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        _ = machine.enqueue(1)
        _ = machine.enqueue(2)
        _ = machine.enqueue(3)
        _ = machine.enqueue(4)
        #expect(!machine.isDraining)
        #expect(machine.enqueuedCount == 4)
        if let handover = machine.help(searchLimit: 8, isTarget: { $0 == 3 }) {
            #expect(handover.items == [1, 2, 3])
            #expect(machine.isDraining)
            _ = machine.finish(handover.relinquish(keepingAtMost: 64))
        }
        #expect(!machine.isDraining)
    }

    @Test func closeIntakeIfIdle_closesOnlyAnIdleInbox_thatNothingReachedSinceItWasSeen() {
        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        machine.beginShutdown(takingStoreWork: true)
        let seen = machine.enqueuedCount
        _ = machine.enqueue(7, fromStoreWork: true)
        let closedWithAnItemWaiting = machine.closeIntakeIfIdle(seen: seen)
        #expect(!closedWithAnItemWaiting)
        _ = machine.drainEverything()
        // Idle again, but an item came and went since `seen`: the shutdown must look again.
        let closedAfterAnItemCameAndWent = machine.closeIntakeIfIdle(seen: seen)
        #expect(!closedAfterAnItemCameAndWent)
        let closedWhenNothingCame = machine.closeIntakeIfIdle(seen: machine.enqueuedCount)
        #expect(closedWhenNothingCame)
        #expect(machine.intake == .closed)
        #expect(enqueueName(machine.enqueue(8, fromStoreWork: true)) == "refuse(8)")
    }

    @Test func removeWaiting_findsAnItemInALaterSegment_andTheRestDrainInOrder() {
        var machine = TestDrainMachine()
        let drainer = TestDrainer()
        _ = machine.becomeReady(with: drainer)
        let total = SegmentedQueue<Int>.segmentCapacity * 2 + 10
        for item in 0..<total {
            _ = machine.enqueue(item)
        }
        #expect(machine.removeWaiting { $0 == total - 5 } == total - 5)
        #expect(machine.removeWaiting { $0 == 3 } == 3)
        #expect(machine.drainEverything() == (0..<total).filter { $0 != 3 && $0 != total - 5 })
        #expect(DrainPhaseName(machine.phase) == .idle)
    }

    @Test(arguments: DrainPhaseName.allCases)
    func shutdownLettingWorkFinish_refusesOutsideItems_andTakesTheStoresOwn(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        let before = setup.machine.waitingCount
        setup.machine.beginShutdown(takingStoreWork: true)
        #expect(setup.machine.intake == .fromStoreWorkOnly)
        #expect(enqueueName(setup.machine.enqueue(7)) == "refuse(7)")
        #expect(setup.machine.waitingCount == before)
        // The store's own work is still taken, as in any phase without a shutdown.
        let own = enqueueName(setup.machine.enqueue(8, fromStoreWork: true))
        switch phase {
        case .drainingThenStop, .stopped:
            #expect(own == "reject(8)")
        case .idle:
            #expect(own == "scheduleDrain")
        case .starting, .scheduled, .draining, .drainingWithBlockQueued:
            #expect(own == "none")
        }
    }

    @Test func shutdownCancellingWork_refusesEveryItem_andTheIntakeNeverOpensAgain() {
        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        machine.beginShutdown(takingStoreWork: true)
        machine.beginShutdown(takingStoreWork: false)
        #expect(machine.intake == .closed)
        #expect(enqueueName(machine.enqueue(1, fromStoreWork: true)) == "refuse(1)")
        // A later shutdown that would let work finish does not widen a closed intake.
        machine.beginShutdown(takingStoreWork: true)
        #expect(machine.intake == .closed)
        #expect(enqueueName(machine.enqueue(2)) == "refuse(2)")
    }

    @Test(arguments: DrainPhaseName.allCases)
    func cancelWaiting_handsBackEveryWaitingItem_andClosesTheIntake(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        let taken = setup.machine.cancelWaiting()
        #expect(taken == (Self.waitingInSetup[phase] ?? []))
        #expect(setup.machine.waitingCount == 0)
        #expect(setup.machine.intake == .closed)
        #expect(setup.phase == phase)
    }

    @Test(arguments: DrainPhaseName.allCases)
    func isIdle_onlyWhenNothingWaitsAndNobodyDrains(in phase: DrainPhaseName) {
        let setup = DrainMachineSetup(phase)
        let expected: [DrainPhaseName: Bool] = [
            .starting: false,  // items wait for readiness
            .idle: true,
            .scheduled: false,
            .draining: false,
            .drainingWithBlockQueued: false,
            .drainingThenStop: false,
            .stopped: true,
        ]
        #expect(setup.machine.isIdle == expected[phase])
    }

    @Test func takenCount_numbersEveryItemTakenForHandling_andNotRefusedOnes() {
        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        _ = machine.enqueue(1)
        _ = machine.enqueue(2)
        let enqueuedBefore = machine.enqueuedCount
        machine.beginShutdown(takingStoreWork: true)
        _ = machine.enqueue(3)  // refused: not counted anywhere
        _ = machine.enqueue(4, fromStoreWork: true)
        #expect(machine.enqueuedCount == enqueuedBefore + 1)
        let drained = machine.drainEverything { #expect($0.isDraining) }
        #expect(drained == [1, 2, 4])
        #expect(machine.isIdle)
    }
}

/// Work under way outside the store keeps the inbox from counting as idle.
@Suite struct DrainStateMachineOutsideWorkTests {
    @Test func outsideWork_keepsAnIdleInboxBusy_untilEveryPieceEnds() {
        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        #expect(machine.isIdle)
        machine.beginOutsideWork()
        machine.beginOutsideWork()
        #expect(!machine.isIdle)
        machine.endOutsideWork()
        #expect(!machine.isIdle)
        machine.endOutsideWork()
        #expect(machine.isIdle)
        #expect(machine.outsideWork == 0)
    }
}

extension DrainStateMachine<TestDrainer, Int> {
    /// Starts the drain block, takes every batch it hands out, runs `beforeFinishing` (the machine
    /// still draining), and finishes; returns the items handed out, or nil (recording an issue)
    /// when no drain block was scheduled.
    fileprivate mutating func drainEverything(
        beforeFinishing: (Self) -> Void = { _ in }, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Int]? {
        guard let right = drainBlockStarts() else {
            Issue.record("a scheduled machine hands the drain block its right", sourceLocation: sourceLocation)
            return nil
        }
        var drained: [Int] = []
        var batch: [Int] = []
        while nextBatch(into: &batch, for: right) != nil {
            drained += batch
            batch.removeAll()
        }
        beforeFinishing(self)
        _ = finish(right.relinquish())
        return drained
    }
}
