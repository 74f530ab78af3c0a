import Testing
@testable import Katana
import KatanaTestSupport

/// Stands for a store's listener: its id and whether promises wait for it.
final class TestDeliveryListener: DeliveryListener {
    let id: UInt64
    let isWaitedFor: Bool

    init(id: UInt64, isWaitedFor: Bool) {
        self.id = id
        self.isWaitedFor = isWaitedFor
    }
}

/// Stands for a run of changes: its changes by name, and the promise (a number) each settles.
struct TestRun: DeliveryRun, Equatable {
    var changes: [String]
    var promises: [Int?]

    /// A run whose change `name` settles promise `promise`.
    init(_ name: String, settling promise: Int?) {
        changes = [name]
        promises = [promise]
    }

    mutating func takePromises() -> [Int] {
        let taken = promises.compactMap { $0 }
        promises = promises.map { _ in nil }
        return taken
    }
}

typealias TestDeliveryMachine = DeliveryStateMachine<TestDeliveryListener, TestRun>

extension TestDeliveryMachine.Phase: CustomTestStringConvertible {
    public var testDescription: String {
        switch self {
        case .idle: return "idle"
        case .delivering: return "delivering"
        case .deliveringThenStop: return "deliveringThenStop"
        case .stopped: return "stopped"
        }
    }
}

/// The phases, for tests that run in every one.
let deliveryPhases: [TestDeliveryMachine.Phase] = [.idle, .delivering, .deliveringThenStop, .stopped]

/// A machine brought into a phase through its own events: with a listener that promises wait
/// for (id 1) while it runs; while delivering, the delivery holds run "a" (promise 1) and run "b"
/// (promise 2) waits; while delivering then stopping, the delivery still holds run "a".
struct DeliveryMachineSetup {
    var machine = TestDeliveryMachine(retainedRuns: 2)
    /// The runs the delivery under way has taken, if one is.
    var inHand: [TestRun] = []

    init(_ phase: TestDeliveryMachine.Phase) {
        _ = machine.add { TestDeliveryListener(id: $0, isWaitedFor: true) }
        switch phase {
        case .idle:
            break
        case .delivering, .deliveringThenStop:
            var published = [TestRun("a", settling: 1)]
            _ = machine.publish(&published)
            _ = machine.nextRuns(swappingWith: &inHand)
            var more = [TestRun("b", settling: 2)]
            _ = machine.publish(&more)
            if phase == .deliveringThenStop {
                _ = machine.stop()
            }
        case .stopped:
            _ = machine.stop()
        }
        #expect(machine.phase == phase, "setup reached \(machine.phase), not \(phase)")
    }

    var phase: TestDeliveryMachine.Phase { machine.phase }
}

/// Every phase × every event, with the phase each event leads to and what it hands back.
@Suite struct DeliveryStateMachineTests {
    // MARK: - Listeners

    @Test(arguments: deliveryPhases)
    func add_listensWhileRunning_andIsFinishedAtOnceOnceStopped(in phase: TestDeliveryMachine.Phase) {
        var setup = DeliveryMachineSetup(phase)
        let listenersBefore = setup.machine.listeners.count
        let added = setup.machine.add { TestDeliveryListener(id: $0, isWaitedFor: false) }
        #expect(added.id == 2)  // the setup's listener got 1
        #expect(setup.phase == phase)
        switch (phase, added.action) {
        case (.idle, .listening(let audience)), (.delivering, .listening(let audience)):
            #expect(audience == .listeners)
            #expect(setup.machine.listeners.map(\.id) == [1, 2])
        case (.deliveringThenStop, .finishAtOnce(let listener)), (.stopped, .finishAtOnce(let listener)):
            #expect(listener.id == 2)
            #expect(setup.machine.listeners.count == listenersBefore)
        default:
            Issue.record("unexpected action in \(phase)")
        }
    }

    @Test func add_reportsTheAudience_sequencesOnlyUntilAListenerThatIsWaitedFor() {
        var machine = TestDeliveryMachine(retainedRuns: 2)
        #expect(machine.audience == .nobody)
        let sequence = machine.add { TestDeliveryListener(id: $0, isWaitedFor: false) }
        guard case .listening(let afterSequence) = sequence.action else {
            Issue.record("the sequence was not added")
            return
        }
        #expect(afterSequence == .sequences)
        let listener = machine.add { TestDeliveryListener(id: $0, isWaitedFor: true) }
        guard case .listening(let afterListener) = listener.action else {
            Issue.record("the listener was not added")
            return
        }
        #expect(afterListener == .listeners)
        #expect(sequence.id != listener.id)
    }

    @Test(arguments: deliveryPhases)
    func remove_dropsTheListener_andReportsTheAudienceLeft(in phase: TestDeliveryMachine.Phase) {
        var setup = DeliveryMachineSetup(phase)
        let sequenceID = setup.machine.add { TestDeliveryListener(id: $0, isWaitedFor: false) }.id
        let removal = setup.machine.remove(1)
        let running = phase == .idle || phase == .delivering
        #expect(removal.audience == (running ? .sequences : .nobody))
        #expect(removal.removed?.id == (running ? 1 : nil))  // handed back, to let go outside the lock
        #expect(setup.machine.listeners.map(\.id) == (running ? [sequenceID] : []))
        #expect(setup.machine.remove(sequenceID).audience == .nobody)
        let unknown = setup.machine.remove(99)  // an id no longer there: nothing happens
        #expect(unknown.audience == .nobody)
        #expect(unknown.removed == nil)
        #expect(setup.phase == phase)
    }

    // MARK: - Publish

    @Test(arguments: deliveryPhases, [false, true])
    func publish(in phase: TestDeliveryMachine.Phase, whileAWaiterIsBlocked blocked: Bool) {
        var setup = DeliveryMachineSetup(phase)
        if blocked {
            _ = setup.machine.listenersWillBlock()
        }
        let pendingBefore = setup.machine.pendingCount
        var runs = [TestRun("c", settling: 3), TestRun("d", settling: nil)]
        let action = setup.machine.publish(&runs)
        let expected: [TestDeliveryMachine.Phase: (TestDeliveryMachine.Phase, Bool, Int)] = [
            // (phase after, schedules a delivery, runs queued)
            .idle: (.delivering, true, 2),
            .delivering: (.delivering, false, 2),  // the delivery under way takes them
            .deliveringThenStop: (.deliveringThenStop, false, 0),  // no listener hears them
            .stopped: (.stopped, false, 0),
        ]
        #expect(setup.phase == expected[phase]?.0)
        #expect(action.schedulesDelivery == expected[phase]?.1)
        #expect(setup.machine.pendingCount - pendingBefore == expected[phase]?.2)
        let running = phase == .idle || phase == .delivering
        // Promises wait for the listeners only while they run and no waiter is blocked.
        #expect(action.settleNow == (running && !blocked ? [] : [3]))
        #expect(runs.map(\.changes) == [["c"], ["d"]])  // the caller's array still refers to the runs
    }

    @Test func publishWhileDelivering_queuesTheRunWithoutSchedulingAnotherDelivery() {
        var setup = DeliveryMachineSetup(.delivering)
        var runs = [TestRun("c", settling: 3)]
        let action = setup.machine.publish(&runs)
        #expect(!action.schedulesDelivery)
        #expect(action.settleNow.isEmpty)
        var next: [TestRun] = []
        guard case .deliver = setup.machine.nextRuns(swappingWith: &next) else {
            Issue.record("the delivery under way got nothing")
            return
        }
        #expect(next.map(\.changes) == [["b"], ["c"]])
        #expect(next.map(\.promises) == [[2], [3]])  // still to settle, by the delivery
    }

    @Test func publishWhileAWaiterIsBlocked_queuesTheChangesForTheListeners_butSettlesTheirPromisesNow() {
        var setup = DeliveryMachineSetup(.idle)
        _ = setup.machine.listenersWillBlock()
        var runs = [TestRun("a", settling: 1), TestRun("b", settling: 2)]
        let action = setup.machine.publish(&runs)
        #expect(action.settleNow == [1, 2])
        #expect(action.schedulesDelivery)
        var next: [TestRun] = []
        _ = setup.machine.nextRuns(swappingWith: &next)
        #expect(next.map(\.changes) == [["a"], ["b"]])  // the listeners still hear every change
        #expect(next.map(\.promises) == [[nil], [nil]])  // but nobody waits for them
    }

    @Test func publish_handsBackTheRunsTheDeliveryEmptied_keepingAtMostRetainedRuns() {
        var setup = DeliveryMachineSetup(.delivering)
        setup.machine.recycle([TestRun("x", settling: nil), TestRun("y", settling: nil), TestRun("z", settling: nil)])
        setup.machine.recycle([TestRun("w", settling: nil)])
        var runs = [TestRun("c", settling: 3)]
        let first = setup.machine.publish(&runs)
        #expect(first.spare.map(\.changes) == [["x"], ["y"]])  // retainedRuns is 2
        var more = [TestRun("d", settling: 4)]
        #expect(setup.machine.publish(&more).spare.isEmpty)  // handed back once
    }

    // MARK: - Delivering

    @Test(arguments: deliveryPhases)
    func nextRuns(in phase: TestDeliveryMachine.Phase) {
        var setup = DeliveryMachineSetup(phase)
        var runs: [TestRun] = []
        let next = setup.machine.nextRuns(swappingWith: &runs)
        switch (phase, next) {
        case (.delivering, .deliver(let listeners)):
            #expect(listeners.map(\.id) == [1])
            #expect(runs.map(\.changes) == [["b"]])
            #expect(setup.phase == .delivering)  // it comes back for more
        case (.deliveringThenStop, .finish):
            #expect(setup.phase == .stopped)  // stopping took what was waiting
        case (.idle, .finish), (.stopped, .finish):
            #expect(setup.phase == phase)  // a stray block: nothing to do
        default:
            Issue.record("unexpected answer in \(phase)")
        }
        #expect(setup.machine.pendingCount == 0)
    }

    @Test func nextRuns_withNothingLeft_endsTheDelivery_andTheNextPublishSchedulesAnother() {
        var setup = DeliveryMachineSetup(.delivering)
        var runs: [TestRun] = []
        _ = setup.machine.nextRuns(swappingWith: &runs)
        runs.removeAll()
        guard case .finish = setup.machine.nextRuns(swappingWith: &runs) else {
            Issue.record("the delivery did not end")
            return
        }
        #expect(setup.phase == .idle)
        #expect(setup.machine.isIdle)
        var more = [TestRun("c", settling: 3)]
        #expect(setup.machine.publish(&more).schedulesDelivery)
    }

    @Test func nextRuns_hasTheListenersOfTheMoment_soOnesAddedMeanwhileHearLaterChanges() {
        var setup = DeliveryMachineSetup(.delivering)
        let late = setup.machine.add { TestDeliveryListener(id: $0, isWaitedFor: true) }.id
        var runs: [TestRun] = []
        guard case .deliver(let listeners) = setup.machine.nextRuns(swappingWith: &runs) else {
            Issue.record("nothing to deliver")
            return
        }
        #expect(listeners.map(\.id) == [1, late])
    }

    @Test(arguments: deliveryPhases)
    func isIdle_onlyWithNoDeliveryUnderWay(in phase: TestDeliveryMachine.Phase) {
        let setup = DeliveryMachineSetup(phase)
        #expect(setup.machine.isIdle == (phase == .idle || phase == .stopped))
    }

    // MARK: - Blocking

    @Test(arguments: deliveryPhases)
    func listenersWillBlock_settlesTheQueuedPromises_butNotThoseTheDeliveryHolds(in phase: TestDeliveryMachine.Phase) {
        var setup = DeliveryMachineSetup(phase)
        let settleNow = setup.machine.listenersWillBlock()
        #expect(settleNow == (phase == .delivering ? [2] : []))  // run "a", in hand, keeps promise 1
        #expect(setup.machine.blockedWaiters == 1)
        #expect(setup.phase == phase)
        #expect(setup.inHand.map(\.promises) == (setup.inHand.isEmpty ? [] : [[1]]))
    }

    @Test func listenersDidUnblock_promisesWaitAgain_onlyOnceTheLastWaiterWoke() {
        var setup = DeliveryMachineSetup(.idle)
        _ = setup.machine.listenersWillBlock()
        _ = setup.machine.listenersWillBlock()
        setup.machine.listenersDidUnblock()
        var first = [TestRun("a", settling: 1)]
        #expect(setup.machine.publish(&first).settleNow == [1])  // one waiter is still blocked
        setup.machine.listenersDidUnblock()
        var second = [TestRun("b", settling: 2)]
        #expect(setup.machine.publish(&second).settleNow.isEmpty)
        #expect(setup.machine.blockedWaiters == 0)
    }

    // MARK: - Stop

    @Test(arguments: deliveryPhases)
    func stop(in phase: TestDeliveryMachine.Phase) {
        var setup = DeliveryMachineSetup(phase)
        let action = setup.machine.stop()
        let expected: [TestDeliveryMachine.Phase: (TestDeliveryMachine.Phase, [UInt64], [Int])] = [
            // (phase after, listeners stopped, promises to settle now)
            .idle: (.stopped, [1], []),
            .delivering: (.deliveringThenStop, [1], [2]),  // run "b" waited; run "a" is in hand
            .deliveringThenStop: (.deliveringThenStop, [], []),  // stopped once already
            .stopped: (.stopped, [], []),
        ]
        #expect(setup.phase == expected[phase]?.0)
        #expect(action.stopped.map(\.id) == expected[phase]?.1)
        #expect(action.settleNow == expected[phase]?.2)
        #expect(action.audience == .nobody)
        #expect(setup.machine.listeners.isEmpty)
        #expect(setup.machine.pendingCount == 0)
    }

    @Test func stopWithQueuedRuns_handsTheirPromisesBackToSettle_andDiscardsTheRuns() {
        var setup = DeliveryMachineSetup(.delivering)
        var more = [TestRun("c", settling: 3), TestRun("d", settling: nil), TestRun("e", settling: 5)]
        _ = setup.machine.publish(&more)
        let action = setup.machine.stop()
        #expect(action.settleNow == [2, 3, 5])
        #expect(action.discarded.map(\.changes) == [["b"], ["c"], ["d"], ["e"]])
        #expect(action.discarded.allSatisfy { $0.promises.allSatisfy { $0 == nil } })
        // The run the delivery holds keeps its promise: the delivery settles it as it goes on.
        #expect(setup.inHand.map(\.promises) == [[1]])
        var runs: [TestRun] = []
        guard case .finish = setup.machine.nextRuns(swappingWith: &runs) else {
            Issue.record("the delivery got more after the stop")
            return
        }
        #expect(runs.isEmpty)
        #expect(setup.phase == .stopped)
    }

    @Test func stopWhileIdle_stopsEveryListener_andReportsNobody() {
        var setup = DeliveryMachineSetup(.idle)
        _ = setup.machine.add { TestDeliveryListener(id: $0, isWaitedFor: false) }
        let action = setup.machine.stop()
        #expect(action.stopped.map(\.id) == [1, 2])
        #expect(action.settleNow.isEmpty)
        #expect(action.discarded.isEmpty)
        #expect(action.audience == .nobody)
        #expect(setup.phase == .stopped)
        #expect(setup.machine.audience == .nobody)
    }

    @Test func afterAStop_aWaiterThatBlocksOrWakes_changesNothingElse() {
        var setup = DeliveryMachineSetup(.stopped)
        #expect(setup.machine.listenersWillBlock().isEmpty)
        setup.machine.listenersDidUnblock()
        #expect(setup.phase == .stopped)
        #expect(setup.machine.blockedWaiters == 0)
    }

    // MARK: - A whole life

    @Test func aWholeLife_everyChangeIsDeliveredOnceAndInOrder_withOneDeliveryAtATime() {
        var machine = TestDeliveryMachine(retainedRuns: 4)
        _ = machine.add { TestDeliveryListener(id: $0, isWaitedFor: true) }
        var delivered: [String] = []
        var deliveriesScheduled = 0
        var first = [TestRun("1", settling: 1)]
        if machine.publish(&first).schedulesDelivery { deliveriesScheduled += 1 }
        var runs: [TestRun] = []
        while case .deliver = machine.nextRuns(swappingWith: &runs) {
            delivered += runs.flatMap(\.changes)
            // Changes published while the listeners run wait for this same delivery.
            if delivered.count < 3 {
                var more = [TestRun("\(delivered.count + 1)", settling: delivered.count + 1)]
                if machine.publish(&more).schedulesDelivery { deliveriesScheduled += 1 }
            }
            machine.recycle(runs)
            runs.removeAll()
        }
        #expect(delivered == ["1", "2", "3"])
        #expect(deliveriesScheduled == 1)
        #expect(machine.phase == .idle)
        let stop = machine.stop()
        #expect(stop.stopped.count == 1)
        #expect(stop.settleNow.isEmpty)
        #expect(machine.phase == .stopped)
    }
}
