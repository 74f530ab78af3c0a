import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

@Suite struct StateUpdaterTests {
    @Test func dispatchedUpdater_isAppliedBeforeItsPromiseResolves() async throws {
        let store = makeStore()
        try await store.dispatch(Increment(amount: 5)).settled()
        #expect(store.state.counter == 5)
    }

    @Test func thousandUpdaters_areAppliedInDispatchOrder() async throws {
        let store = makeStore()
        var last: Promise<Void>?
        for value in 1...1_000 {
            last = store.dispatch(Increment(amount: value))
        }
        try await last?.settled()
        #expect(store.state.applied == Array(1...1_000))
        #expect(store.state.counter == (1...1_000).reduce(0, +))
    }

    @Test func eightThreadsDispatching_loseNoUpdate() async throws {
        let store = makeStore()
        let promises = LockedList<Promise<Void>>()
        // `concurrentPerform` blocks its caller until every iteration has run: a thread of its own.
        try await onThreadOfItsOwn("the concurrent iterations") {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<1_000 {
                    promises.append(store.dispatch(Increment()))
                }
            }
        }
        try await Promise.all(promises.all).settled()
        #expect(store.state.counter == 8_000)
        #expect(store.state.applied.count == 8_000)
    }

    @Test func typeErasedUpdater_isApplied() async throws {
        let store = makeStore(initial: CounterState(counter: 21))
        try await store.dispatch(ErasedDouble()).settled()
        #expect(store.state.counter == 42)
    }
}

@Suite struct StateUpdaterPromiseTests {
    @Test func updaterPromise_resolvesAfterNewStateIsStored() async throws {
        let store = makeStore()
        let sawOwnUpdate = (1...50).map { amount in
            store.dispatch(Increment(amount: amount)).then { _ in
                store.state.applied.contains(amount)
            }
        }
        let results = try await Promise.all(sawOwnUpdate).settled()
        #expect(results == Array(repeating: true, count: 50))
    }

    @Test func updaterPromise_isPendingWhileUpdaterQueueIsBusy() async throws {
        let store = makeStore()
        let hold = try await store.holdUpdaterQueue()
        let blocking = hold.promise
        let queued = store.dispatch(Increment(amount: 1))
        let pendingWhileBlocked = queued.isPending && blocking.isPending
        hold.release()
        #expect(pendingWhileBlocked)
        try await queued.settled()
        #expect(store.state.counter == 1001)
        #expect(!blocking.isPending)
    }
}
