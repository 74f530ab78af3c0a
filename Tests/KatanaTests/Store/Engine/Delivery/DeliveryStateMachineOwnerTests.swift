import Testing
@testable import Katana
import KatanaTestSupport

/// The delivery holds its store while changes wait for the listeners (docs/Architecture.md,
/// "Lifetimes"), so a store whose last outside reference goes right after a dispatch still calls
/// them.
@Suite struct DeliveryStateMachineOwnerTests {
    /// Stands for the store; counts how often the machine asks for it.
    private final class OwnerSource {
        final class Owner {}
        let owner = Owner()
        private(set) var asked = 0

        func give() -> AnyObject? {
            asked += 1
            return owner
        }
    }

    private func listening() -> TestDeliveryMachine {
        var machine = TestDeliveryMachine(retainedRuns: 2)
        _ = machine.add { TestDeliveryListener(id: $0, isWaitedFor: true) }
        return machine
    }

    @Test func thePublishThatStartsADelivery_holdsTheStore_untilThatDeliveryFindsNothingLeft() {
        var machine = listening()
        let source = OwnerSource()
        var first = [TestRun("a", settling: 1)]
        #expect(machine.publish(&first, owner: source.give).schedulesDelivery)
        #expect(machine.keptAlive === source.owner)
        var inHand: [TestRun] = []
        _ = machine.nextRuns(swappingWith: &inHand)
        #expect(machine.releaseOwnerIfIdle() == nil, "run a is being delivered")
        // Published while the delivery goes on: held already, nobody is asked.
        var second = [TestRun("b", settling: 2)]
        _ = machine.publish(&second, owner: source.give)
        #expect(source.asked == 1)
        inHand.removeAll()
        _ = machine.nextRuns(swappingWith: &inHand)
        #expect(inHand.map(\.changes) == [["b"]])
        #expect(machine.releaseOwnerIfIdle() == nil, "run b is being delivered")
        inHand.removeAll()
        guard case .finish = machine.nextRuns(swappingWith: &inHand) else {
            Issue.record("the delivery did not finish with nothing left")
            return
        }
        #expect(machine.releaseOwnerIfIdle() === source.owner)
        #expect(machine.keptAlive == nil)
        #expect(machine.releaseOwnerIfIdle() == nil, "handed back once")
    }

    @Test func aDeliveryStoppedWhileItRuns_handsTheStoreBackWhenItEnds() {
        var machine = listening()
        let source = OwnerSource()
        var runs = [TestRun("a", settling: 1)]
        _ = machine.publish(&runs, owner: source.give)
        var inHand: [TestRun] = []
        _ = machine.nextRuns(swappingWith: &inHand)
        _ = machine.stop()
        #expect(machine.phase == .deliveringThenStop)
        #expect(machine.releaseOwnerIfIdle() == nil)
        inHand.removeAll()
        _ = machine.nextRuns(swappingWith: &inHand)
        #expect(machine.phase == .stopped)
        #expect(machine.releaseOwnerIfIdle() === source.owner)
    }

    @Test func aPublishToAStoppedDelivery_doesNotHoldTheStore() {
        var machine = listening()
        let source = OwnerSource()
        _ = machine.stop()
        var runs = [TestRun("a", settling: 1)]
        let action = machine.publish(&runs, owner: source.give)
        #expect(action.settleNow == [1])
        #expect(source.asked == 0)
        #expect(machine.keptAlive == nil)
    }

    @Test func aStoreBeingReleased_givesNoOwner_andTheDeliveryHoldsNothing() {
        var machine = listening()
        var runs = [TestRun("a", settling: 1)]
        _ = machine.publish(&runs, owner: { nil })
        #expect(machine.keptAlive == nil)
        #expect(machine.phase == .delivering)
    }
}
