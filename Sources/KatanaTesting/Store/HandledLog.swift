import Katana

/// What a test store's store has handled, in order, and how far the test has asserted it: a plain
/// value, tested without threads (`HandledLogTests`); ``TestStore`` keeps one behind a lock, fed by
/// its recording interceptor.
///
/// The test sends one item at a time: before it dispatches, it says which type it is about to
/// send (``expectSend(of:)``), and the first item of that type the store begins to handle is the
/// sent one. Every other item is received, and waits in order for the test to assert it.
struct HandledLog<S: State> {
    private(set) var items: [HandledItem<S>] = []
    /// The type of the item the test is sending, until the store begins to handle it.
    private var expectedSend: ObjectIdentifier?
    /// The sent item, once the store began to handle it; taken by the send.
    private var sentIndex: Int?
    /// Received items the test has not asserted or skipped yet, oldest first.
    private var unasserted: [Int] = []
    /// Async side effects whose task has started and whose body has not ended.
    private var runningSideEffects: Set<Int> = []
    /// The state as each async side effect's task started, until its item's record ends: its
    /// state after.
    private var statesAtTaskStart: [Int: S] = [:]
    /// Items begun and not ended.
    private var inProgressCount = 0
    /// Items in progress that got past the app's interceptors.
    private var arrivedItems: Set<Int> = []

    // MARK: - Recording (the interceptor)

    /// The store begins to handle `item`; returns its index.
    mutating func begin(_ item: any Dispatchable, stateBefore: S) -> Int {
        let index = items.count
        let origin: HandledItem<S>.Origin
        if let expected = expectedSend, ObjectIdentifier(type(of: item)) == expected {
            origin = .sent
            expectedSend = nil
            sentIndex = index
        } else {
            origin = .received
            unasserted.append(index)
        }
        items.append(HandledItem(item: item, origin: origin, index: index, stateBefore: stateBefore, stateAfter: nil, outcome: .inProgress))
        inProgressCount += 1
        return index
    }

    /// The item at `index` got past every interceptor of the app's.
    mutating func arrived(_ index: Int) {
        arrivedItems.insert(index)
    }

    /// Whether the item at `index` got past every interceptor of the app's.
    func hasArrived(_ index: Int) -> Bool {
        arrivedItems.contains(index)
    }

    /// The store is done with the item at `index`.
    mutating func end(_ index: Int, stateAfter: S?, outcome: HandledItem<S>.Outcome) {
        guard items.indices.contains(index) else { return }
        if case .inProgress = items[index].outcome {
            inProgressCount -= 1
        }
        arrivedItems.remove(index)
        items[index].stateAfter = statesAtTaskStart.removeValue(forKey: index) ?? stateAfter
        items[index].outcome = outcome
    }

    /// The task of the async side effect at `index` started (with the state at that moment, which
    /// becomes the item's state after), or its body ended.
    mutating func sideEffectTask(_ index: Int, isRunning: Bool, stateAtStart: S?) {
        if isRunning {
            runningSideEffects.insert(index)
            if let stateAtStart, items.indices.contains(index), case .inProgress = items[index].outcome {
                statesAtTaskStart[index] = stateAtStart
            }
        } else {
            runningSideEffects.remove(index)
        }
    }

    // MARK: - The test

    /// The test is about to send an item of this type.
    mutating func expectSend(of type: any Dispatchable.Type) {
        expectedSend = ObjectIdentifier(type)
        sentIndex = nil
    }

    /// The sent item, once the store has begun to handle it (it is then no longer expected).
    mutating func takeSent() -> HandledItem<S>? {
        guard let index = sentIndex else { return nil }
        sentIndex = nil
        return items[index]
    }

    /// Stops expecting a send that never reached the store (an interceptor replaced or dropped it
    /// before the recording interceptor, or the store refused it).
    mutating func abandonSend() {
        expectedSend = nil
        sentIndex = nil
    }

    /// The oldest received item the test has not asserted, if any.
    var nextUnasserted: HandledItem<S>? {
        unasserted.first.map { items[$0] }
    }

    /// Whether the oldest received item the test has not asserted is there and the store is done
    /// with it: what a receive waits for.
    var nextUnassertedIsDone: Bool {
        guard let next = nextUnasserted else { return false }
        if case .inProgress = next.outcome {
            return false
        }
        return true
    }

    /// The received items the test has not asserted, oldest first.
    var unassertedItems: [HandledItem<S>] {
        unasserted.map { items[$0] }
    }

    /// The oldest unasserted received item is asserted (or skipped).
    mutating func markNextAsserted() {
        if !unasserted.isEmpty {
            unasserted.removeFirst()
        }
    }

    /// Every unasserted received item is skipped; returns them.
    mutating func skipAllUnasserted() -> [HandledItem<S>] {
        defer { unasserted = [] }
        return unassertedItems
    }

    /// Whether the store is in the middle of handling an item it began.
    var hasItemInProgress: Bool {
        inProgressCount > 0
    }

    /// The async side effects still running, in the order they were handled.
    var runningSideEffectItems: [HandledItem<S>] {
        runningSideEffects.sorted().map { items[$0] }
    }
}
