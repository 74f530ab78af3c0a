import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Records how deeply listener calls are nested (1 = not nested) and each change they receive.
private final class ListenerProbe: Sendable {
    private let inside = LockedValue(0)
    /// The nesting depth seen on entering each call.
    let depths = LockedList<Int>()
    let changes = LockedList<Change>()
    /// How many calls arrived while a waiting block on the listeners' executor was still running.
    let callsDuringWaitingBlock = LockedValue(0)
    let waitingBlocks = LockedValue(0)

    func call(_ old: CounterState, _ new: CounterState, body: () -> Void = {}) {
        depths.append(inside.increment())
        if waitingBlocks.value > 0 { callsDuringWaitingBlock.increment() }
        changes.append(Change(old.counter, new.counter))
        body()
        inside.decrement()
    }

    var maxDepth: Int { depths.all.max() ?? 0 }
}

/// Whether `changes` are `count` consecutive changes by one from 0: in order, none missing.
private func areConsecutiveIncrements(_ changes: [Change], count: Int) -> Bool {
    changes == (0..<count).map { Change($0, $0 + 1) }
}

/// Runs `body` as a block on `queue` (the listeners' executor) and suspends until it has finished.
private func runOnListenerQueue(_ queue: DispatchQueue, probe: ListenerProbe, _ body: @escaping @Sendable () -> Void) async throws {
    let done = Latch()
    queue.async {
        probe.waitingBlocks.increment()
        body()
        probe.waitingBlocks.decrement()
        done.open()
    }
    try await done.opened("the block on the listeners' queue to finish")
}

/// Store semantics 2: a wait never dead-locks on Katana's order, when the waiting thread is the one
/// the listeners run on; the listener calls then follow in order, never nested.
@Suite struct ListenerExecutorWaitTests {
    @Test func listenerWaitingOnItsOwnStore_returns_andLaterCallsFollowInOrderUnnested() async throws {
        let store = makeStore()
        let probe = ListenerProbe()
        let waitErrors = LockedList<String>()
        store.addListener { [weak store] old, new in
            probe.call(old, new) {
                guard let store, new.counter < 5 else { return }
                do {
                    try store.dispatch(Increment()).wait(timeout: defaultTestTimeout)
                } catch {
                    waitErrors.append("\(error)")
                }
            }
        }
        try await store.dispatch(Increment()).settled()
        try await probe.changes.waitUntil("5 listener calls") { $0.count == 5 }
        #expect(waitErrors.all == [])
        #expect(areConsecutiveIncrements(probe.changes.all, count: 5), "\(probe.changes.all)")
        #expect(probe.maxDepth == 1)
        #expect(store.state.counter == 5)
    }

    @Test func waitFromBlockOnListenerQueue_returns_andItsListenerCallFollowsUnnested() async throws {
        let listenerQueue = DispatchQueue(label: "test.listeners.waiting")
        let store = makeStore(configuration: testConfiguration(listeners: listenerQueue))
        let probe = ListenerProbe()
        store.addListener { old, new in probe.call(old, new) }
        let outcomes = LockedList<String>()
        try await runOnListenerQueue(listenerQueue, probe: probe) {
            do {
                try store.dispatch(Increment()).wait(timeout: defaultTestTimeout)
                outcomes.append("fulfilled")
            } catch {
                outcomes.append("\(error)")
            }
        }
        #expect(outcomes.all == ["fulfilled"])
        try await probe.changes.waitUntil("1 listener call") { $0.count == 1 }
        #expect(probe.changes.all == [Change(0, 1)])
        #expect(probe.maxDepth == 1)
        #expect(probe.callsDuringWaitingBlock.value == 0)
    }

    @Test func tenWaitsInARowFromBlockOnListenerQueue_allReturn_andListenerCallsFollowInOrderUnnested() async throws {
        let listenerQueue = DispatchQueue(label: "test.listeners.waiting")
        let store = makeStore(configuration: testConfiguration(listeners: listenerQueue))
        let probe = ListenerProbe()
        store.addListener { old, new in probe.call(old, new) }
        let outcomes = LockedList<String>()
        try await runOnListenerQueue(listenerQueue, probe: probe) {
            for _ in 1...10 {
                do {
                    try store.dispatch(Increment()).wait(timeout: defaultTestTimeout)
                    outcomes.append("fulfilled")
                } catch {
                    outcomes.append("\(error)")
                }
            }
        }
        #expect(outcomes.all == Array(repeating: "fulfilled", count: 10))
        try await probe.changes.waitUntil("10 listener calls") { $0.count == 10 }
        #expect(areConsecutiveIncrements(probe.changes.all, count: 10), "\(probe.changes.all)")
        #expect(probe.maxDepth == 1)
        #expect(probe.callsDuringWaitingBlock.value == 0)
    }

    @Test func waitFromBlockOnListenerQueue_withEarlierChangesStillUndelivered_keepsListenerOrder() async throws {
        let listenerQueue = DispatchQueue(label: "test.listeners.waiting")
        let store = makeStore(configuration: testConfiguration(listeners: listenerQueue))
        let probe = ListenerProbe()
        store.addListener { old, new in
            probe.call(old, new) { usleep(200) }
        }
        let holdQueue = Latch()
        let outcomes = LockedList<String>()
        // Keep the listener queue busy so that the next changes wait for delivery.
        listenerQueue.async { holdQueue.wait(timeout: holdTimeout) }
        for _ in 1...5 {
            store.dispatch(Increment())
        }
        let done = Latch()
        listenerQueue.async {
            probe.waitingBlocks.increment()
            do {
                try store.dispatch(Increment()).wait(timeout: defaultTestTimeout)
                outcomes.append("fulfilled")
            } catch {
                outcomes.append("\(error)")
            }
            probe.waitingBlocks.decrement()
            done.open()
        }
        holdQueue.open()
        try await done.opened("the waiting block to finish")
        #expect(outcomes.all == ["fulfilled"])
        try await probe.changes.waitUntil("6 listener calls") { $0.count == 6 }
        #expect(areConsecutiveIncrements(probe.changes.all, count: 6), "\(probe.changes.all)")
        #expect(probe.maxDepth == 1)
        #expect(probe.callsDuringWaitingBlock.value == 0)
    }
}
