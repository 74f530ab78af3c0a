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

extension ListenerProbe {
    /// Waits for `count` listener calls, then checks that they were `count` consecutive changes by
    /// one from 0 (in order, none missing), none nested, none during a waiting block.
    func expectConsecutiveUnnestedCalls(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let changes = try await self.changes.waitUntil("\(count) listener calls") { $0.count == count }
        #expect(changes == (0..<count).map { Change($0, $0 + 1) }, sourceLocation: sourceLocation)
        #expect(maxDepth == 1, sourceLocation: sourceLocation)
        #expect(callsDuringWaitingBlock.value == 0, sourceLocation: sourceLocation)
    }
}

/// Dispatches an increment and blocks until its promise settles (the wait under test); notes in
/// `outcomes` how the wait ended.
private func incrementAndWait(_ store: TestStore, noting outcomes: LockedList<String>) {
    do {
        try store.dispatch(Increment()).wait(timeout: defaultTestTimeout)
        outcomes.append("fulfilled")
    } catch {
        outcomes.append("\(error)")
    }
}

/// Queues `body` as a block on `queue` (the listeners' executor), counted as a waiting block while
/// it runs; the latch returned opens once it has run.
private func queueWaitingBlock(on queue: DispatchQueue, probe: ListenerProbe, _ body: @escaping @Sendable () -> Void) -> Latch {
    let done = Latch()
    queue.async {
        probe.waitingBlocks.increment()
        body()
        probe.waitingBlocks.decrement()
        done.open()
    }
    return done
}

/// Store semantics 2: a wait never dead-locks on Katana's order, when the waiting thread is the one
/// the listeners run on; the listener calls then follow in order, never nested.
@Suite struct ListenerExecutorWaitTests {
    @Test func listenerWaitingOnItsOwnStore_returns_andLaterCallsFollowInOrderUnnested() async throws {
        let store = makeStore()
        let probe = ListenerProbe()
        let outcomes = LockedList<String>()
        store.addListener { [weak store] old, new in
            probe.call(old, new) {
                guard let store, new.counter < 5 else { return }
                incrementAndWait(store, noting: outcomes)
            }
        }
        try await store.dispatch(Increment()).settled()
        try await probe.expectConsecutiveUnnestedCalls(5)
        #expect(outcomes.all == Array(repeating: "fulfilled", count: 4))
        #expect(store.state.counter == 5)
    }

    @Test(arguments: [1, 10])
    func waitsInARowFromBlockOnListenerQueue_allReturn_andTheirListenerCallsFollowInOrderUnnested(waits: Int) async throws {
        let listenerQueue = DispatchQueue(label: "test.listeners.waiting")
        let store = makeStore(configuration: testConfiguration(listeners: listenerQueue))
        let probe = ListenerProbe()
        store.addListener { old, new in probe.call(old, new) }
        let outcomes = LockedList<String>()
        try await queueWaitingBlock(on: listenerQueue, probe: probe) {
            for _ in 1...waits {
                incrementAndWait(store, noting: outcomes)
            }
        }.opened("the block on the listeners' queue to finish")
        #expect(outcomes.all == Array(repeating: "fulfilled", count: waits))
        try await probe.expectConsecutiveUnnestedCalls(waits)
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
        let done = queueWaitingBlock(on: listenerQueue, probe: probe) { incrementAndWait(store, noting: outcomes) }
        holdQueue.open()
        try await done.opened("the waiting block to finish")
        #expect(outcomes.all == ["fulfilled"])
        try await probe.expectConsecutiveUnnestedCalls(6)
    }
}
