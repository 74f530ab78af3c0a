import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Detects two calls running at the same time.
private final class OverlapDetector: Sendable {
    private let inside = LockedValue(0)
    private let overlaps = LockedValue(0)

    func run(_ body: () -> Void) {
        if inside.increment() > 1 { overlaps.increment() }
        body()
        usleep(20)  // widen the window in which a concurrent call would be seen
        inside.decrement()
    }

    var overlapCount: Int { overlaps.value }
}

/// Store semantics 2 (listeners): every (old, new) pair, in order, never concurrently.
@Suite struct ListenerTests {
    @Test func listener_receivesEveryOldNewPairInOrder() async throws {
        let store = makeStore()
        let heard = LockedList<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        for amount in 1...100 {
            store.dispatch(Increment(amount: amount))
        }
        try await heard.waitUntil("100 calls") { $0.count == 100 }
        var expected: [Change] = []
        var total = 0
        for amount in 1...100 {
            expected.append(Change(total, total + amount))
            total += amount
        }
        #expect(heard.all == expected)
    }

    @Test(arguments: [false, true])
    func listeners_areNeverCalledConcurrently(onConcurrentQueue: Bool) async throws {
        let executor = onConcurrentQueue
            ? DispatchQueue(label: "test.listeners.concurrent", attributes: .concurrent)
            : DispatchQueue(label: "test.listeners.serial")
        let store = makeStore(configuration: testConfiguration(listeners: executor))
        let detector = OverlapDetector()
        let heard = LockedList<Change>()
        store.addListener { old, new in
            detector.run { heard.append(Change(old.counter, new.counter)) }
        }
        store.addListener { _, _ in
            detector.run {}
        }
        // `concurrentPerform` blocks its caller until every iteration has run: a thread of its own.
        try await onThreadOfItsOwn("the concurrent iterations") {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<200 {
                    store.dispatch(Increment())
                }
            }
        }
        try await heard.waitUntil("800 calls") { $0.count == 800 }
        #expect(detector.overlapCount == 0)
        let changes = heard.all
        #expect(changes.first == Change(0, 1))
        // In order: each change starts from the state the previous one produced.
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.new == $1.old && $1.new == $1.old + 1 })
    }

    @Test func listener_isCalledEvenWhenNewStateEqualsOld() async throws {
        let store = makeStore(initial: CounterState(counter: 4, applied: [4]))
        let heard = LockedList<Bool>()
        store.addListener { old, new in heard.append(old == new) }
        store.dispatch(NoChange())
        try await heard.waitUntil("a call") { $0.count == 1 }
        #expect(heard.all == [true])
    }

    @Test func unsubscribe_stopsCalls() async throws {
        let store = makeStore()
        let stopped = LockedList<Change>()
        let kept = LockedList<Change>()
        let unsubscribe = store.addListener { old, new in stopped.append(Change(old.counter, new.counter)) }
        store.addListener { old, new in kept.append(Change(old.counter, new.counter)) }

        store.dispatch(Increment(amount: 1))
        try await kept.waitUntil("a call") { $0.count == 1 }
        try await stopped.waitUntil("a call") { $0.count == 1 }
        unsubscribe()
        unsubscribe()  // a second call does nothing
        store.dispatch(Increment(amount: 2))
        store.dispatch(Increment(amount: 3))
        try await kept.waitUntil("3 calls") { $0.count == 3 }
        #expect(stopped.all == [Change(0, 1)])
        #expect(kept.all == [Change(0, 1), Change(1, 3), Change(3, 6)])
    }

    @Test func anyListener_receivesTypeErasedStates() async throws {
        let store = makeStore()
        let heard = LockedList<Change>()
        let anyStore: any AnyStore = store
        anyStore.addAnyListener { old, new in
            guard let old = old as? CounterState, let new = new as? CounterState else {
                heard.append(Change(-1, -1))
                return
            }
            heard.append(Change(old.counter, new.counter))
        }
        store.dispatch(Increment(amount: 2))
        store.dispatch(Increment(amount: 5))
        try await heard.waitUntil("2 calls") { $0.count == 2 }
        #expect(heard.all == [Change(0, 2), Change(2, 7)])
    }

    @Test func immediateListenerExecutor_listenerReceivesEveryChange() async throws {
        let store = makeStore(configuration: testConfiguration(listeners: ImmediateExecutor()))
        let heard = LockedList<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        try await store.dispatch(Increment(amount: 8)).settled()
        try await store.dispatch(Increment(amount: 1)).settled()
        try await heard.waitUntil("2 calls") { $0.count == 2 }
        #expect(heard.all == [Change(0, 8), Change(8, 9)])
    }

    @Test func stateUpdates_yieldsPairsInOrderAndFinishesWhenStoreIsReleased() async throws {
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let updates = try #require(store).stateUpdates
        let seen = LockedList<Change>()
        let consumer = Task {
            for await (old, new) in updates {
                seen.append(Change(old.counter, new.counter))
            }
            return seen.all
        }
        defer { consumer.cancel() }
        for amount in 1...3 {
            store?.dispatch(Increment(amount: amount))
        }
        try await seen.waitForCount(3)
        store = nil
        // The listener delivery holds the store until it has delivered the last change, which can
        // be just after the sequence saw it (docs/Lifetimes.md, "Releasing a store").
        try await poll("the store to be released") { weakStore == nil }
        let all = try await withTimeout("WHAT") { await consumer.value }
        #expect(all == [Change(0, 1), Change(1, 3), Change(3, 6)])
    }

    @Test func stateUpdates_eachAccessIsAnIndependentSequence() async throws {
        let store = makeStore()
        let first = LockedList<Change>()
        let second = LockedList<Change>()
        let streams = [(store.stateUpdates, first), (store.stateUpdates, second)]
        let consumers = streams.map { stream, seen in
            Task {
                for await (old, new) in stream {
                    seen.append(Change(old.counter, new.counter))
                }
            }
        }
        defer { consumers.forEach { $0.cancel() } }
        store.dispatch(Increment(amount: 1))
        store.dispatch(Increment(amount: 2))
        try await first.waitUntil("two changes") { $0.count == 2 }
        try await second.waitUntil("two changes") { $0.count == 2 }
        #expect(first.all == [Change(0, 1), Change(1, 3)])
        #expect(second.all == first.all)
    }

    @Test func stateUpdates_stopsListeningWhenIteratingTaskIsCancelled() async throws {
        let store = makeStore()
        let consumer = Task {
            var count = 0
            for await _ in store.stateUpdates { count += 1 }
            return count
        }
        consumer.cancel()
        let count = try await withTimeout("WHAT") { await consumer.value }
        #expect(count == 0)
        // The store keeps working with the stream's listener gone.
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(store.state.counter == 2)
    }

    @Test func shutdown_settlesThePromisesOfChangesStillWaitingForTheListeners_beforeItReturns() async throws {
        // The listeners' executor keeps the delivery block until the test runs it: the listeners
        // are held busy without blocking a thread (a blocked dispatch thread would hold up other
        // tests' stores, since Linux adds dispatch threads only slowly).
        let listeners = HeldExecutor()
        let store = makeStore(configuration: testConfiguration(listeners: listeners))
        let heard = LockedList<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        #expect(store.isReady)
        // With the store's queue held while they are dispatched, one drain block applies all three
        // and publishes their changes; the empty block queued after it runs once it has finished.
        store.engine.updaterQueue.suspend()
        let promises = (1...3).map { store.dispatch(Increment(amount: $0)) }
        store.engine.updaterQueue.resume()
        try await drained(store.engine.updaterQueue)
        #expect(store.state.counter == 6)
        #expect(listeners.heldCount == 1)  // the delivery, not started
        #expect(promises.allSatisfy { $0.isPending })  // waiting for the listener

        await store.shutdown(.cancelWork, deadline: .zero, gracePeriod: .zero)

        // Fulfilled, not rejected: their updates were applied; the listener will never hear them.
        #expect(promises.allSatisfy { promise in
            if case .success = promise.outcome { true } else { false }
        })
        listeners.runHeld()
        #expect(heard.all.isEmpty)
        #expect(store.engine.delivery.isIdle)
    }
}
