import Foundation
import Testing
@testable import Katana

@Suite struct StateUpdaterTests {
    @Test func dispatchedUpdater_isAppliedBeforeItsPromiseResolves() throws {
        let store = makeStore()
        try store.dispatch(Increment(amount: 5)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 5)
    }

    @Test func thousandUpdaters_areAppliedInDispatchOrder() throws {
        let store = makeStore()
        var last: Promise<Void>?
        for value in 1...1_000 {
            last = store.dispatch(Increment(amount: value))
        }
        try last?.wait(timeout: .seconds(10))
        #expect(store.state.applied == Array(1...1_000))
        #expect(store.state.counter == (1...1_000).reduce(0, +))
    }

    @Test func eightThreadsDispatching_loseNoUpdate() throws {
        let store = makeStore()
        let promises = Recorder<Promise<Void>>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 {
                promises.append(store.dispatch(Increment()))
            }
        }
        try Promise.all(promises.values).wait(timeout: .seconds(20))
        #expect(store.state.counter == 8_000)
        #expect(store.state.applied.count == 8_000)
    }

    @Test func typeErasedUpdater_isApplied() throws {
        let store = makeStore(initial: CounterState(counter: 21))
        try store.dispatch(ErasedDouble()).wait(timeout: .seconds(10))
        #expect(store.state.counter == 42)
    }
}

@Suite struct StateUpdaterPromiseTests {
    @Test func updaterPromise_resolvesAfterNewStateIsStored() throws {
        let store = makeStore()
        let sawOwnUpdate = (1...50).map { amount in
            store.dispatch(Increment(amount: amount)).then { _ in
                store.state.applied.contains(amount)
            }
        }
        let results = try Promise.all(sawOwnUpdate).wait(timeout: .seconds(10))
        #expect(results == Array(repeating: true, count: 50))
    }

    @Test func updaterPromise_isPendingWhileUpdaterQueueIsBusy() throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let blocking = store.dispatch(BlockingUpdater(started: started, release: release))
        #expect(started.wait())
        let queued = store.dispatch(Increment(amount: 1))
        let pendingWhileBlocked = queued.isPending && blocking.isPending
        release.open()
        #expect(pendingWhileBlocked)
        try queued.wait(timeout: .seconds(10))
        #expect(store.state.counter == 1001)
        #expect(!blocking.isPending)
    }
}
