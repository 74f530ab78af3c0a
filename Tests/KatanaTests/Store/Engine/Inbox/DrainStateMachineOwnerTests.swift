import Testing
@testable import Katana
import KatanaTestSupport

/// Stands for the store the inbox holds while work waits.
private final class TestOwner {}

/// The inbox holds its store while accepted work waits (docs/Architecture.md, "Lifetimes"), event
/// by event.
@Suite struct DrainStateMachineOwnerTests {
    /// Counts how often the machine asks for its owner.
    private final class OwnerSource {
        let owner = TestOwner()
        private(set) var asked = 0

        func give() -> AnyObject? {
            asked += 1
            return owner
        }
    }

    @Test func anItemWaitingForReadiness_holdsTheStore_andReadinessWithItLeftHoldsOnUntilTheDrain() {
        var machine = TestDrainMachine()
        let source = OwnerSource()
        _ = machine.enqueue(1, owner: source.give)
        _ = machine.enqueue(2, owner: source.give)
        #expect(machine.keptAlive === source.owner)
        #expect(source.asked == 1, "asked once, then held")
        _ = machine.becomeReady(with: TestDrainer())
        #expect(machine.releaseOwnerIfIdle() == nil, "items still wait: scheduled")
        #expect(machine.keptAlive === source.owner)
    }

    @Test func theDrainThatEmptiesTheInbox_releasesTheStore_once() {
        var machine = TestDrainMachine()
        let source = OwnerSource()
        _ = machine.becomeReady(with: TestDrainer())
        _ = machine.enqueue(1, owner: source.give)
        guard let right = machine.drainBlockStarts() else {
            Issue.record("no right to drain")
            return
        }
        var batch: [Int] = []
        _ = machine.nextBatch(into: &batch, for: right)
        // Arriving while the drain runs: held already, nobody is asked.
        _ = machine.enqueue(2, owner: source.give)
        #expect(source.asked == 1)
        #expect(machine.releaseOwnerIfIdle() == nil, "draining")
        batch.removeAll()
        _ = machine.nextBatch(into: &batch, for: right)
        #expect(batch == [2])
        batch.removeAll()
        _ = machine.finish(right.relinquish())
        #expect(DrainPhaseName(machine.phase) == .idle)
        #expect(machine.releaseOwnerIfIdle() === source.owner)
        #expect(machine.keptAlive == nil)
        #expect(machine.releaseOwnerIfIdle() == nil)
    }

    @Test func aDrainThatLeavesItemsForTheNextBlock_keepsHoldingTheStore() {
        var machine = TestDrainMachine()
        let source = OwnerSource()
        _ = machine.becomeReady(with: TestDrainer())
        _ = machine.enqueue(0, owner: source.give)
        _ = machine.enqueue(1, owner: source.give)
        guard let handover = machine.help(searchLimit: 64, isTarget: { $0 == 0 }) else {
            Issue.record("the waiting thread was not handed the drain")
            return
        }
        _ = machine.finish(handover.relinquish(keepingAtMost: 16))
        #expect(DrainPhaseName(machine.phase) == .scheduled)
        #expect(machine.releaseOwnerIfIdle() == nil)
        #expect(machine.keptAlive === source.owner)
    }

    @Test func anItemHandledOnTheDispatchingThread_doesNotHoldTheStore() {
        var machine = TestDrainMachine()
        let source = OwnerSource()
        _ = machine.becomeReady(with: TestDrainer())
        let action = machine.enqueue(1, handlingHereWhenIdle: true, owner: source.give)
        guard case .handleHere(let start) = consume action else {
            Issue.record("the idle store did not hand the item to the caller")
            return
        }
        // The caller holds the store while it handles its own item.
        #expect(source.asked == 0)
        #expect(machine.keptAlive == nil)
        #expect(start.item == 1)
    }

    @Test func itemsCancelledBeforeReadiness_letTheStoreGoAtReadiness() {
        var machine = TestDrainMachine()
        let source = OwnerSource()
        _ = machine.enqueue(1, owner: source.give)
        _ = machine.removeWaiting { $0 == 1 }
        _ = machine.becomeReady(with: TestDrainer())
        #expect(DrainPhaseName(machine.phase) == .idle)
        #expect(machine.releaseOwnerIfIdle() === source.owner)
    }

    @Test func aStoreBeingReleased_givesNoOwner_andItsItemIsRejectedByTheStop() {
        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        _ = machine.enqueue(1, owner: { nil })
        #expect(machine.keptAlive == nil)
        let stop = machine.stop()
        #expect(stop.rejected == [1])
    }

    @Test func aRefusedItem_doesNotHoldTheStore() {
        var machine = TestDrainMachine()
        let source = OwnerSource()
        _ = machine.becomeReady(with: TestDrainer())
        machine.beginShutdown(takingStoreWork: false)
        _ = machine.enqueue(1, owner: source.give)
        #expect(source.asked == 0)
        #expect(machine.keptAlive == nil)
    }
}

/// Work of the store's own (its rules, side effects, interceptors) takes no hold on the store.
@Suite struct DrainStateMachineStoreWorkOwnerTests {
    @Test func anItemFromTheStoresOwnWork_takesNoHold_butExtendsOneFromOutside() {
        final class Owner {}
        let owner = Owner()
        var machine = TestDrainMachine()
        _ = machine.becomeReady(with: TestDrainer())
        var asked = 0
        _ = machine.enqueue(1, fromStoreWork: true, owner: { asked += 1; return owner })
        #expect(asked == 0)
        #expect(machine.keptAlive == nil, "a rule that keeps dispatching must not keep its store alive")
        _ = machine.enqueue(2, owner: { asked += 1; return owner })
        #expect(machine.keptAlive === owner)
        _ = machine.enqueue(3, fromStoreWork: true, owner: { asked += 1; return owner })
        #expect(asked == 1)
        #expect(machine.keptAlive === owner, "held until the inbox is idle")
    }
}
