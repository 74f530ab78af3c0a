import Katana
@testable import KatanaTesting
import Testing

/// The test store's log as a plain value, without a store or threads: which item is the sent
/// one, how outcomes are decided, and the order in which received items wait to be asserted.
@Suite struct HandledLogTests {
    private let zero = Counting()
    private let one = Counting(counter: 1, log: [])

    private func indices(_ items: [HandledItem<Counting>]) -> [Int] {
        items.map(\.index)
    }

    // MARK: begin / end / arrived

    @Test func begin_returnsConsecutiveIndices_andRecordsTheStateBefore() {
        var log = HandledLog<Counting>()
        #expect(log.begin(Add(), stateBefore: zero) == 0)
        #expect(log.begin(Note(text: "x"), stateBefore: one) == 1)
        #expect(log.items.map(\.index) == [0, 1])
        #expect(log.items.map(\.stateBefore) == [zero, one])
        #expect(log.items.allSatisfy { $0.stateAfter == nil })
    }

    @Test func begin_thenEnd_setsTheStateAfterAndTheOutcome() {
        var log = HandledLog<Counting>()
        let index = log.begin(Add(), stateBefore: zero)
        guard case .inProgress = log.items[index].outcome else {
            Issue.record("A begun item must be in progress, not \(log.items[index].outcome)")
            return
        }
        log.end(index, stateAfter: one, outcome: .handled)
        #expect(log.items[index].stateAfter == one)
        guard case .handled = log.items[index].outcome else {
            Issue.record("Expected .handled, got \(log.items[index].outcome)")
            return
        }
    }

    @Test func arrived_isRemembered_untilTheItemEnds() {
        var log = HandledLog<Counting>()
        let first = log.begin(Add(), stateBefore: zero)
        let second = log.begin(Add(), stateBefore: zero)
        #expect(!log.hasArrived(first))
        log.arrived(first)
        #expect(log.hasArrived(first))
        #expect(!log.hasArrived(second))
        log.end(first, stateAfter: one, outcome: .handled)
        #expect(!log.hasArrived(first))
    }

    @Test func end_withTheRejectedOutcome_keepsTheErrorText() {
        var log = HandledLog<Counting>()
        let index = log.begin(Add(), stateBefore: zero)
        log.end(index, stateAfter: zero, outcome: .rejected("boom"))
        guard case .rejected(let error) = log.items[index].outcome else {
            Issue.record("Expected .rejected, got \(log.items[index].outcome)")
            return
        }
        #expect(error == "boom")
    }

    @Test func end_ofAnUnknownIndex_changesNothing() {
        var log = HandledLog<Counting>()
        let index = log.begin(Add(), stateBefore: zero)
        log.end(7, stateAfter: one, outcome: .handled)
        #expect(log.items.count == 1)
        #expect(log.items[index].stateAfter == nil)
        #expect(log.hasItemInProgress)
    }

    // MARK: hasItemInProgress

    @Test func hasItemInProgress_countsItemsBegunAndNotEnded_once() {
        var log = HandledLog<Counting>()
        #expect(!log.hasItemInProgress)
        let first = log.begin(Add(), stateBefore: zero)
        let second = log.begin(Add(), stateBefore: zero)
        log.end(first, stateAfter: one, outcome: .handled)
        #expect(log.hasItemInProgress)
        // Ending an item twice must not count it twice.
        log.end(first, stateAfter: one, outcome: .blocked)
        #expect(log.hasItemInProgress)
        log.end(second, stateAfter: one, outcome: .handled)
        #expect(!log.hasItemInProgress)
    }

    // MARK: expectSend / takeSent / abandonSend

    @Test func expectSend_theFirstItemOfThatType_isTheSentOne_theOthersAreReceived() {
        var log = HandledLog<Counting>()
        log.expectSend(of: Add.self)
        _ = log.begin(Note(text: "before"), stateBefore: zero)   // another type: received
        _ = log.begin(Add(amount: 1), stateBefore: zero)          // the sent one
        _ = log.begin(Add(amount: 2), stateBefore: one)           // same type, later: received
        #expect(log.items.map(\.origin) == [.received, .sent, .received])
        #expect(indices(log.unassertedItems) == [0, 2])
        let sent = log.takeSent()
        #expect(sent?.index == 1)
        #expect((sent?.item as? Add)?.amount == 1)
    }

    @Test func takeSent_beforeTheStoreBegan_isNil_andTakingTwiceIsNil() {
        var log = HandledLog<Counting>()
        log.expectSend(of: Add.self)
        #expect(log.takeSent() == nil)
        _ = log.begin(Add(), stateBefore: zero)
        #expect(log.takeSent()?.index == 0)
        #expect(log.takeSent() == nil)
    }

    @Test func abandonSend_makesTheNextItemOfThatTypeReceived() {
        var log = HandledLog<Counting>()
        log.expectSend(of: Add.self)
        log.abandonSend()
        _ = log.begin(Add(), stateBefore: zero)
        #expect(log.items.map(\.origin) == [.received])
        #expect(log.takeSent() == nil)
        #expect(indices(log.unassertedItems) == [0])
    }

    @Test func withoutExpectSend_everyItemIsReceived() {
        var log = HandledLog<Counting>()
        _ = log.begin(Add(), stateBefore: zero)
        _ = log.begin(Add(), stateBefore: zero)
        #expect(log.items.map(\.origin) == [.received, .received])
    }

    // MARK: unasserted order

    @Test func nextUnasserted_isTheOldest_andMarkNextAssertedMovesOn() {
        var log = HandledLog<Counting>()
        for text in ["a", "b", "c"] {
            _ = log.begin(Note(text: text), stateBefore: zero)
        }
        #expect(log.nextUnasserted?.index == 0)
        log.markNextAsserted()
        #expect(log.nextUnasserted?.index == 1)
        #expect(indices(log.unassertedItems) == [1, 2])
        log.markNextAsserted()
        log.markNextAsserted()
        #expect(log.nextUnasserted == nil)
        #expect(log.unassertedItems.isEmpty)
        // Nothing left: marking again does nothing.
        log.markNextAsserted()
        #expect(log.unassertedItems.isEmpty)
        #expect(log.items.count == 3)
    }

    @Test func nextUnassertedIsDone_onlyOnceTheOldestReceivedItemHasEnded() {
        var log = HandledLog<Counting>()
        #expect(!log.nextUnassertedIsDone)
        log.expectSend(of: Add.self)
        let sent = log.begin(Add(), stateBefore: zero)
        log.end(sent, stateAfter: one, outcome: .handled)
        // A sent item is not received: still nothing to receive.
        #expect(!log.nextUnassertedIsDone)
        let first = log.begin(Note(text: "a"), stateBefore: one)
        let second = log.begin(Note(text: "b"), stateBefore: one)
        log.end(second, stateAfter: one, outcome: .handled)
        // The oldest is what a receive checks next, and it is still in progress.
        #expect(!log.nextUnassertedIsDone)
        log.end(first, stateAfter: one, outcome: .blocked)
        #expect(log.nextUnassertedIsDone)
        log.markNextAsserted()
        #expect(log.nextUnassertedIsDone)
        log.markNextAsserted()
        #expect(!log.nextUnassertedIsDone)
    }

    @Test func skipAllUnasserted_returnsThemInOrder_andLeavesNone() {
        var log = HandledLog<Counting>()
        log.expectSend(of: Add.self)
        _ = log.begin(Add(), stateBefore: zero)
        _ = log.begin(Note(text: "a"), stateBefore: zero)
        _ = log.begin(Note(text: "b"), stateBefore: zero)
        #expect(indices(log.skipAllUnasserted()) == [1, 2])
        #expect(log.unassertedItems.isEmpty)
        #expect(log.skipAllUnasserted().isEmpty)
        // Items begun after the skip wait to be asserted again.
        _ = log.begin(Note(text: "c"), stateBefore: zero)
        #expect(indices(log.unassertedItems) == [3])
    }

    // MARK: side effect tasks

    @Test func sideEffectTask_tracksTheRunningSet() {
        var log = HandledLog<Counting>()
        let index = log.begin(LoadAmount(), stateBefore: zero)
        #expect(log.runningSideEffectItems.isEmpty)
        log.sideEffectTask(index, isRunning: true, stateAtStart: nil)
        #expect(indices(log.runningSideEffectItems) == [index])
        log.sideEffectTask(index, isRunning: false, stateAtStart: nil)
        #expect(log.runningSideEffectItems.isEmpty)
        // Ending one that is not running changes nothing.
        log.sideEffectTask(index, isRunning: false, stateAtStart: nil)
        #expect(log.runningSideEffectItems.isEmpty)
    }

    @Test func runningSideEffectItems_areInTheOrderTheyWereHandled_notTheOrderTheyStarted() {
        var log = HandledLog<Counting>()
        let indices = (0..<4).map { _ in log.begin(LoadAmount(), stateBefore: zero) }
        for index in [indices[3], indices[0], indices[2]] {
            log.sideEffectTask(index, isRunning: true, stateAtStart: nil)
        }
        #expect(self.indices(log.runningSideEffectItems) == [0, 2, 3])
        #expect(log.runningSideEffectItems.allSatisfy { $0.isSideEffect })
    }

    @Test func anAsyncSideEffectsStateAfter_isTheStateAsItsTaskStarted_notWhatItsDispatchesDidSince() {
        var log = HandledLog<Counting>()
        let index = log.begin(LoadAmount(), stateBefore: zero)
        var atStart = zero
        atStart.counter = 1
        log.sideEffectTask(index, isRunning: true, stateAtStart: atStart)
        var later = zero
        later.counter = 42
        // The recorder reads the state once `next` has returned: by then the task may have
        // dispatched, and the store applied, more.
        log.end(index, stateAfter: later, outcome: .handled)
        #expect(log.items[index].stateAfter == atStart)
        // A side effect without a task keeps the state read at its end.
        let other = log.begin(LoadAmount(), stateBefore: zero)
        log.end(other, stateAfter: later, outcome: .handled)
        #expect(log.items[other].stateAfter == later)
    }
}
