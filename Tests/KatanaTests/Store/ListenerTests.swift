import Dispatch
import Foundation
import Testing
@testable import Katana

/// Detects two calls running at the same time.
private final class OverlapDetector: @unchecked Sendable {
    private let inside = Counter()
    private let overlaps = Counter()

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
    @Test func listener_receivesEveryOldNewPairInOrder() {
        let store = makeStore()
        let heard = Recorder<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        for amount in 1...100 {
            store.dispatch(Increment(amount: amount))
        }
        #expect(eventually { heard.values.count == 100 })
        var expected: [Change] = []
        var total = 0
        for amount in 1...100 {
            expected.append(Change(total, total + amount))
            total += amount
        }
        #expect(heard.values == expected)
    }

    @Test(arguments: [false, true])
    func listeners_areNeverCalledConcurrently(onConcurrentQueue: Bool) {
        let executor = onConcurrentQueue
            ? DispatchQueue(label: "test.listeners.concurrent", attributes: .concurrent)
            : DispatchQueue(label: "test.listeners.serial")
        let store = makeStore(configuration: testConfiguration(listeners: executor))
        let detector = OverlapDetector()
        let heard = Recorder<Change>()
        store.addListener { old, new in
            detector.run { heard.append(Change(old.counter, new.counter)) }
        }
        store.addListener { _, _ in
            detector.run {}
        }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<200 {
                store.dispatch(Increment())
            }
        }
        #expect(eventually { heard.values.count == 800 })
        #expect(detector.overlapCount == 0)
        let changes = heard.values
        #expect(changes.first == Change(0, 1))
        // In order: each change starts from the state the previous one produced.
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.new == $1.old && $1.new == $1.old + 1 })
    }

    @Test func listener_isCalledEvenWhenNewStateEqualsOld() {
        let store = makeStore(initial: CounterState(counter: 4, applied: [4]))
        let heard = Recorder<Bool>()
        store.addListener { old, new in heard.append(old == new) }
        store.dispatch(NoChange())
        #expect(eventually { heard.values.count == 1 })
        #expect(heard.values == [true])
    }

    @Test func unsubscribe_stopsCalls() {
        let store = makeStore()
        let stopped = Recorder<Change>()
        let kept = Recorder<Change>()
        let unsubscribe = store.addListener { old, new in stopped.append(Change(old.counter, new.counter)) }
        store.addListener { old, new in kept.append(Change(old.counter, new.counter)) }

        store.dispatch(Increment(amount: 1))
        #expect(eventually { kept.values.count == 1 && stopped.values.count == 1 })
        unsubscribe()
        unsubscribe()  // a second call does nothing
        store.dispatch(Increment(amount: 2))
        store.dispatch(Increment(amount: 3))
        #expect(eventually { kept.values.count == 3 })
        #expect(stopped.values == [Change(0, 1)])
        #expect(kept.values == [Change(0, 1), Change(1, 3), Change(3, 6)])
    }

    @Test func anyListener_receivesTypeErasedStates() {
        let store = makeStore()
        let heard = Recorder<Change>()
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
        #expect(eventually { heard.values.count == 2 })
        #expect(heard.values == [Change(0, 2), Change(2, 7)])
    }

    @Test func immediateListenerExecutor_listenerReceivesEveryChange() throws {
        let store = makeStore(configuration: testConfiguration(listeners: ImmediateExecutor()))
        let heard = Recorder<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        try store.dispatch(Increment(amount: 8)).wait(timeout: .seconds(10))
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(eventually { heard.values.count == 2 })
        #expect(heard.values == [Change(0, 8), Change(8, 9)])
    }

    @Test func stateUpdates_yieldsPairsInOrderAndFinishesWhenStoreIsReleased() async throws {
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let updates = try #require(store).stateUpdates
        let seen = Recorder<Change>()
        let consumer = Task {
            for await (old, new) in updates {
                seen.append(Change(old.counter, new.counter))
            }
            return seen.values
        }
        defer { consumer.cancel() }
        for amount in 1...3 {
            store?.dispatch(Increment(amount: amount))
        }
        #expect(await eventuallyAsync { seen.values.count == 3 })
        store = nil
        // The listener delivery holds the store until it has delivered the last change, which can
        // be just after the sequence saw it (docs/Lifetimes.md, "Releasing a store").
        #expect(await eventuallyAsync { weakStore == nil })
        let all = try await withTimeout { await consumer.value }
        #expect(all == [Change(0, 1), Change(1, 3), Change(3, 6)])
    }

    @Test func stateUpdates_eachAccessIsAnIndependentSequence() async throws {
        let store = makeStore()
        let first = Recorder<Change>()
        let second = Recorder<Change>()
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
        #expect(await eventuallyAsync { first.values.count == 2 && second.values.count == 2 })
        #expect(first.values == [Change(0, 1), Change(1, 3)])
        #expect(second.values == first.values)
    }

    @Test func stateUpdates_stopsListeningWhenIteratingTaskIsCancelled() async throws {
        let store = makeStore()
        let consumer = Task {
            var count = 0
            for await _ in store.stateUpdates { count += 1 }
            return count
        }
        consumer.cancel()
        let count = try await withTimeout { await consumer.value }
        #expect(count == 0)
        // The store keeps working with the stream's listener gone.
        try await withTimeout { try await store.dispatch(Increment(amount: 2)).value }
        #expect(store.state.counter == 2)
    }

    @Test func shutdown_settlesThePromisesOfChangesStillWaitingForTheListeners_beforeItReturns() async throws {
        // The listeners' executor keeps the delivery block until the test runs it: the listeners
        // are held busy without blocking a thread (a blocked dispatch thread would hold up other
        // tests' stores, since Linux adds dispatch threads only slowly).
        let listeners = HeldExecutor()
        let store = makeStore(configuration: testConfiguration(listeners: listeners))
        let heard = Recorder<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        #expect(store.isReady)
        // With the store's queue held while they are dispatched, one drain block applies all three
        // and publishes their changes; the empty block queued after it runs once it has finished.
        store.engine.updaterQueue.suspend()
        let promises = (1...3).map { store.dispatch(Increment(amount: $0)) }
        store.engine.updaterQueue.resume()
        store.engine.updaterQueue.sync {}
        #expect(store.state.counter == 6)
        #expect(listeners.heldCount == 1)  // the delivery, not started
        #expect(promises.allSatisfy { $0.isPending })  // waiting for the listener

        await store.shutdown(.cancelWork, deadline: .zero, gracePeriod: .zero)

        // Fulfilled, not rejected: their updates were applied; the listener will never hear them.
        #expect(promises.allSatisfy { promise in
            if case .success = promise.outcome { true } else { false }
        })
        listeners.runHeld()
        #expect(heard.values.isEmpty)
        #expect(store.engine.delivery.isIdle)
    }
}
