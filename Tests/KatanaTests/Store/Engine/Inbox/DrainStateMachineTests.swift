import Testing
@testable import Katana
import KatanaTestSupport

/// Stands for the store's drainer: only its identity matters.
final class TestDrainer {}

typealias TestDrainMachine = DrainStateMachine<TestDrainer, Int>

/// The phases, by name (the machine's phases carry the drainer, so they are not Equatable).
enum DrainPhaseName: String, CaseIterable, CustomTestStringConvertible {
    case starting, idle, scheduled, draining, drainingWithBlockQueued, drainingThenStop, stopped

    var testDescription: String { rawValue }

    init(_ phase: TestDrainMachine.Phase) {
        switch phase {
        case .starting: self = .starting
        case .idle: self = .idle
        case .scheduled: self = .scheduled
        case .draining: self = .draining
        case .drainingWithBlockQueued: self = .drainingWithBlockQueued
        case .drainingThenStop: self = .drainingThenStop
        case .stopped: self = .stopped
        }
    }
}

/// A machine brought into a phase through its own events, with the items 1 and 2 waiting where
/// the phase allows items, and the right of the thread draining, if one does.
struct DrainMachineSetup: ~Copyable {
    var machine = TestDrainMachine()
    var right: TestDrainMachine.DrainRight? = nil
    let drainer = TestDrainer()

    init(_ phase: DrainPhaseName) {
        switch phase {
        case .starting:
            _ = machine.enqueue(1)
            _ = machine.enqueue(2)
        case .idle:
            _ = machine.becomeReady(with: drainer)
        case .scheduled:
            _ = machine.becomeReady(with: drainer)
            _ = machine.enqueue(1)
            _ = machine.enqueue(2)
        case .draining:
            _ = machine.becomeReady(with: drainer)
            _ = machine.enqueue(0)
            if let granted = machine.drainBlockStarts() {
                var batch: [Int] = []
                _ = machine.nextBatch(into: &batch, for: granted)
                right = consume granted
            }
            _ = machine.enqueue(1)
            _ = machine.enqueue(2)
        case .drainingWithBlockQueued:
            _ = machine.becomeReady(with: drainer)
            _ = machine.enqueue(0)
            _ = machine.enqueue(1)
            _ = machine.enqueue(2)
            if let handover = machine.help(searchLimit: 64, isTarget: { $0 == 0 }) {
                right = handover.intoRight()
            }
        case .drainingThenStop:
            _ = machine.becomeReady(with: drainer)
            _ = machine.enqueue(1)
            right = machine.drainBlockStarts()
            _ = machine.stop()
        case .stopped:
            _ = machine.becomeReady(with: drainer)
            _ = machine.stop()
        }
        #expect(DrainPhaseName(machine.phase) == phase, "setup reached \(DrainPhaseName(machine.phase)), not \(phase)")
    }

    var phase: DrainPhaseName { DrainPhaseName(machine.phase) }

    /// Whether a thread drains (the setup holds its right).
    var holdsRight: Bool {
        switch right {
        case .some: return true
        case .none: return false
        }
    }

    /// The setup's right if it has one, or else one from another machine.
    mutating func takeRight() -> TestDrainMachine.DrainRight? {
        if let own = right.take() {
            return own
        }
        return foreignRight()
    }
}

/// A right that belongs to another machine, for events in phases where nobody drains.
private func foreignRight() -> TestDrainMachine.DrainRight? {
    var other = TestDrainMachine()
    _ = other.becomeReady(with: TestDrainer())
    _ = other.enqueue(9)
    return other.drainBlockStarts()
}

/// Whether a waiting thread was handed the drain.
private func granted(_ handover: consuming TestDrainMachine.Handover?) -> Bool {
    switch consume handover {
    case .some: return true
    case .none: return false
    }
}

func describe(_ action: TestDrainMachine.ScheduleAction, drainer: TestDrainer) -> String {
    switch action {
    case .none: return "none"
    case .scheduleDrain: return "scheduleDrain"
    case .release(let released): return released === drainer ? "release(drainer)" : "release(other)"
    }
}

/// Every phase × every event, with the phase each event leads to and the action it returns.
@Suite struct DrainStateMachineTests {
    @Test(arguments: DrainPhaseName.allCases)
    func becomeReady(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        let newcomer = TestDrainer()
        let action = describe(setup.machine.becomeReady(with: newcomer), drainer: newcomer)
        let expected: [DrainPhaseName: (DrainPhaseName, String)] = [
            .starting: (.scheduled, "scheduleDrain"),  // items were waiting for readiness
            .idle: (.idle, "release(drainer)"),
            .scheduled: (.scheduled, "release(drainer)"),
            .draining: (.draining, "release(drainer)"),
            .drainingWithBlockQueued: (.drainingWithBlockQueued, "release(drainer)"),
            .drainingThenStop: (.drainingThenStop, "release(drainer)"),
            .stopped: (.stopped, "release(drainer)"),  // released while starting
        ]
        #expect(setup.phase == expected[phase]?.0)
        #expect(action == expected[phase]?.1)
    }

    @Test func becomeReady_withNothingWaiting_isIdle() {
        var machine = TestDrainMachine()
        let drainer = TestDrainer()
        #expect(describe(machine.becomeReady(with: drainer), drainer: drainer) == "none")
        #expect(DrainPhaseName(machine.phase) == .idle)
        #expect(machine.isReady)
    }

    @Test(arguments: DrainPhaseName.allCases, [false, true])
    func enqueue(in phase: DrainPhaseName, handlingHereWhenIdle: Bool) {
        var setup = DrainMachineSetup(phase)
        let before = setup.machine.waitingCount
        let action: String
        switch setup.machine.enqueue(7, handlingHereWhenIdle: handlingHereWhenIdle) {
        case .none: action = "none"
        case .scheduleDrain: action = "scheduleDrain"
        case .reject(let item): action = "reject(\(item))"
        case .refuse(let item): action = "refuse(\(item))"
        case .handleHere(let start): action = start.right.drainer === setup.drainer ? "handleHere(\(start.item))" : "handleHere(other)"
        }
        let added = setup.machine.waitingCount - before
        let expected: [DrainPhaseName: (DrainPhaseName, String, Int)] = [
            .starting: (.starting, "none", 1),
            .idle: handlingHereWhenIdle ? (.draining, "handleHere(7)", 0) : (.scheduled, "scheduleDrain", 1),
            .scheduled: (.scheduled, "none", 1),
            .draining: (.draining, "none", 1),
            .drainingWithBlockQueued: (.drainingWithBlockQueued, "none", 1),
            .drainingThenStop: (.drainingThenStop, "reject(7)", 0),
            .stopped: (.stopped, "reject(7)", 0),
        ]
        #expect(setup.phase == expected[phase]?.0)
        #expect(action == expected[phase]?.1)
        #expect(added == expected[phase]?.2)
    }

    @Test(arguments: DrainPhaseName.allCases)
    func drainBlockStarts(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        let action: String
        switch setup.machine.drainBlockStarts() {
        case .some(let right): action = right.drainer === setup.drainer ? "right" : "right(other)"
        case .none: action = "none"
        }
        let expected: [DrainPhaseName: (DrainPhaseName, String)] = [
            .starting: (.starting, "none"),  // a stale block: nothing to do
            .idle: (.idle, "none"),
            .scheduled: (.draining, "right"),
            .draining: (.draining, "none"),
            .drainingWithBlockQueued: (.draining, "none"),  // the helper keeps the drainer; no block queued now
            .drainingThenStop: (.drainingThenStop, "none"),
            .stopped: (.stopped, "none"),
        ]
        #expect(setup.phase == expected[phase]?.0)
        #expect(action == expected[phase]?.1)
    }

    @Test(arguments: DrainPhaseName.allCases)
    func nextBatch(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        var batch: [Int] = []
        setup.machine.audience = .listeners
        guard let right = setup.takeRight() else {
            Issue.record("no right to ask with")
            return
        }
        let audience = setup.machine.nextBatch(into: &batch, for: right)
        let expected: [DrainPhaseName: [Int]] = [
            .starting: [], .idle: [], .scheduled: [], .stopped: [],  // nobody drains: nothing is handed out
            .draining: [1, 2],
            .drainingWithBlockQueued: [1, 2],  // what the helper left, before the block starts
            .drainingThenStop: [],  // the waiting items were rejected at stop
        ]
        #expect(batch == expected[phase])
        #expect(audience == (batch.isEmpty ? nil : .listeners))
        #expect(setup.phase == phase)
    }

    @Test(arguments: DrainPhaseName.allCases, [false, true])
    func finish(in phase: DrainPhaseName, withItemsLeft: Bool) {
        var setup = DrainMachineSetup(phase)
        let ownRight = setup.holdsRight
        guard let right = setup.takeRight() else {
            Issue.record("no right to finish with")
            return
        }
        if !withItemsLeft, ownRight {
            var taken: [Int] = []
            _ = setup.machine.nextBatch(into: &taken, for: right)
        }
        let action = describe(setup.machine.finish(right.relinquish()), drainer: setup.drainer)
        let hasItems = setup.machine.waitingCount > 0
        var expected: [DrainPhaseName: (DrainPhaseName, String)] = [
            // Only a thread that drains finishes; anything else just lets its drainer go.
            .starting: (.starting, "release(other)"),
            .idle: (.idle, "release(other)"),
            .scheduled: (.scheduled, "release(other)"),
            .stopped: (.stopped, "release(other)"),
            .drainingWithBlockQueued: (.scheduled, "none"),  // the queued block takes what is left
            .drainingThenStop: (.stopped, "release(drainer)"),
        ]
        expected[.draining] = hasItems ? (.scheduled, "scheduleDrain") : (.idle, "none")
        #expect(ownRight == [.draining, .drainingWithBlockQueued, .drainingThenStop].contains(phase))
        #expect(setup.phase == expected[phase]?.0)
        #expect(action == expected[phase]?.1)
    }

    @Test(arguments: DrainPhaseName.allCases)
    func help_whenTheItemIsWaiting(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        var taken: [Int] = []
        if let handover = setup.machine.help(searchLimit: 64, isTarget: { $0 == 1 }) {
            taken = handover.items
        }
        let expected: [DrainPhaseName: (DrainPhaseName, [Int])] = [
            .starting: (.starting, []),  // not ready yet: the waiting thread sleeps
            .idle: (.idle, []),
            .scheduled: (.drainingWithBlockQueued, [1]),  // up to and including its own item
            .draining: (.draining, []),  // someone drains already
            .drainingWithBlockQueued: (.drainingWithBlockQueued, []),
            .drainingThenStop: (.drainingThenStop, []),
            .stopped: (.stopped, []),
        ]
        #expect(setup.phase == expected[phase]?.0)
        #expect(taken == expected[phase]?.1)
    }

    @Test func help_takesEverythingUpToItsItem_andLeavesTheRestForTheBlock() {
        var setup = DrainMachineSetup(.scheduled)
        _ = setup.machine.enqueue(3)
        guard let handover = setup.machine.help(searchLimit: 64, isTarget: { $0 == 2 }) else {
            Issue.record("the waiting thread got nothing")
            return
        }
        #expect(handover.items == [1, 2])
        #expect(setup.machine.waitingCount == 1)
        #expect(handover.right.drainer === setup.drainer)
    }

    @Test func help_doesNotSearchPastItsLimit() {
        var setup = DrainMachineSetup(.scheduled)
        let pastTheLimit = granted(setup.machine.help(searchLimit: 1, isTarget: { $0 == 2 }))
        let notWaiting = granted(setup.machine.help(searchLimit: 64, isTarget: { $0 == 5 }))
        #expect(!pastTheLimit)
        #expect(!notWaiting)
        #expect(setup.phase == .scheduled)
        #expect(setup.machine.waitingCount == 2)
    }

    @Test(arguments: DrainPhaseName.allCases)
    func stop(in phase: DrainPhaseName) {
        var setup = DrainMachineSetup(phase)
        let waiting = setup.machine.waitingCount
        let action = setup.machine.stop()
        let released = action.released.map { $0 === setup.drainer ? "drainer" : "other" } ?? "nothing"
        let expected: [DrainPhaseName: (DrainPhaseName, String)] = [
            .starting: (.stopped, "nothing"),  // start-up lets the drainer go when it finishes
            .idle: (.stopped, "drainer"),
            .scheduled: (.stopped, "drainer"),
            .draining: (.drainingThenStop, "nothing"),  // the thread draining lets it go
            .drainingWithBlockQueued: (.drainingThenStop, "nothing"),
            .drainingThenStop: (.drainingThenStop, "nothing"),
            .stopped: (.stopped, "nothing"),
        ]
        #expect(setup.phase == expected[phase]?.0)
        #expect(released == expected[phase]?.1)
        #expect(action.rejected.count == waiting)
        #expect(setup.machine.waitingCount == 0)
        #expect(!setup.machine.isReady)
    }

    @Test func aWholeLife_itemsComeOutOnceAndInOrder() {
        var machine = TestDrainMachine()
        let drainer = TestDrainer()
        var handled: [Int] = []
        _ = machine.enqueue(1)
        #expect(describe(machine.becomeReady(with: drainer), drainer: drainer) == "scheduleDrain")
        guard let right = machine.drainBlockStarts() else {
            Issue.record("the block did not get the right")
            return
        }
        var batch: [Int] = []
        while machine.nextBatch(into: &batch, for: right) != nil {
            handled += batch
            batch.removeAll()
            if handled.count < 3 {
                _ = machine.enqueue(handled.count + 1)
            }
        }
        #expect(describe(machine.finish(right.relinquish()), drainer: drainer) == "none")
        #expect(handled == [1, 2, 3])
        #expect(DrainPhaseName(machine.phase) == .idle)
    }
}
