import Dispatch
import Foundation
import Testing
@testable import Katana

/// Records how deeply listener calls are nested (1 = not nested) and each change they receive.
private final class ListenerProbe: Sendable {
    private let inside = Counter()
    /// The nesting depth seen on entering each call.
    let depths = Recorder<Int>()
    let changes = Recorder<Change>()
    /// How many calls arrived while a waiting block on the listeners' executor was still running.
    let callsDuringWaitingBlock = Counter()
    let waitingBlocks = Counter()

    func call(_ old: CounterState, _ new: CounterState, body: () -> Void = {}) {
        depths.append(inside.increment())
        if waitingBlocks.value > 0 { callsDuringWaitingBlock.increment() }
        changes.append(Change(old.counter, new.counter))
        body()
        inside.decrement()
    }

    var maxDepth: Int { depths.values.max() ?? 0 }
}

/// Whether `changes` are `count` consecutive changes by one from 0: in order, none missing.
private func areConsecutiveIncrements(_ changes: [Change], count: Int) -> Bool {
    changes == (0..<count).map { Change($0, $0 + 1) }
}

/// Runs `body` as a block on `queue` (the listeners' executor) and waits (bounded) for it to finish.
private func runOnListenerQueue(_ queue: DispatchQueue, probe: ListenerProbe, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = Latch()
    queue.async {
        probe.waitingBlocks.increment()
        body()
        probe.waitingBlocks.decrement()
        done.open()
    }
    return done.wait(timeout: .seconds(10))
}

/// Store semantics 2: a wait never dead-locks on Katana's order, when the waiting thread is the one
/// the listeners run on; the listener calls then follow in order, never nested.
@Suite struct ListenerExecutorWaitTests {
    @Test func listenerWaitingOnItsOwnStore_returns_andLaterCallsFollowInOrderUnnested() throws {
        let store = makeStore()
        let probe = ListenerProbe()
        let waitErrors = Recorder<String>()
        store.addListener { [weak store] old, new in
            probe.call(old, new) {
                guard let store, new.counter < 5 else { return }
                do {
                    try store.dispatch(Increment()).wait(timeout: .seconds(5))
                } catch {
                    waitErrors.append("\(error)")
                }
            }
        }
        try store.dispatch(Increment()).wait(timeout: .seconds(5))
        #expect(eventually(timeout: .seconds(10)) { probe.changes.values.count == 5 })
        #expect(waitErrors.values == [])
        #expect(areConsecutiveIncrements(probe.changes.values, count: 5), "\(probe.changes.values)")
        #expect(probe.maxDepth == 1)
        #expect(store.state.counter == 5)
    }

    @Test func waitFromBlockOnListenerQueue_returns_andItsListenerCallFollowsUnnested() {
        let listenerQueue = DispatchQueue(label: "test.listeners.waiting")
        let store = makeStore(configuration: testConfiguration(listeners: listenerQueue))
        let probe = ListenerProbe()
        store.addListener { old, new in probe.call(old, new) }
        let outcomes = Recorder<String>()
        let finished = runOnListenerQueue(listenerQueue, probe: probe) {
            do {
                try store.dispatch(Increment()).wait(timeout: .seconds(5))
                outcomes.append("fulfilled")
            } catch {
                outcomes.append("\(error)")
            }
        }
        #expect(finished)
        #expect(outcomes.values == ["fulfilled"])
        #expect(eventually(timeout: .seconds(5)) { probe.changes.values.count == 1 })
        #expect(probe.changes.values == [Change(0, 1)])
        #expect(probe.maxDepth == 1)
        #expect(probe.callsDuringWaitingBlock.value == 0)
    }

    @Test func tenWaitsInARowFromBlockOnListenerQueue_allReturn_andListenerCallsFollowInOrderUnnested() {
        let listenerQueue = DispatchQueue(label: "test.listeners.waiting")
        let store = makeStore(configuration: testConfiguration(listeners: listenerQueue))
        let probe = ListenerProbe()
        store.addListener { old, new in probe.call(old, new) }
        let outcomes = Recorder<String>()
        let finished = runOnListenerQueue(listenerQueue, probe: probe) {
            for _ in 1...10 {
                do {
                    try store.dispatch(Increment()).wait(timeout: .seconds(5))
                    outcomes.append("fulfilled")
                } catch {
                    outcomes.append("\(error)")
                }
            }
        }
        #expect(finished)
        #expect(outcomes.values == Array(repeating: "fulfilled", count: 10))
        #expect(eventually(timeout: .seconds(5)) { probe.changes.values.count == 10 })
        #expect(areConsecutiveIncrements(probe.changes.values, count: 10), "\(probe.changes.values)")
        #expect(probe.maxDepth == 1)
        #expect(probe.callsDuringWaitingBlock.value == 0)
    }

    @Test func waitFromBlockOnListenerQueue_withEarlierChangesStillUndelivered_keepsListenerOrder() {
        let listenerQueue = DispatchQueue(label: "test.listeners.waiting")
        let store = makeStore(configuration: testConfiguration(listeners: listenerQueue))
        let probe = ListenerProbe()
        store.addListener { old, new in
            probe.call(old, new) { usleep(200) }
        }
        let holdQueue = Latch()
        let outcomes = Recorder<String>()
        // Keep the listener queue busy so that the next changes wait for delivery.
        listenerQueue.async { holdQueue.wait(timeout: .seconds(5)) }
        for _ in 1...5 {
            store.dispatch(Increment())
        }
        let done = Latch()
        listenerQueue.async {
            probe.waitingBlocks.increment()
            do {
                try store.dispatch(Increment()).wait(timeout: .seconds(5))
                outcomes.append("fulfilled")
            } catch {
                outcomes.append("\(error)")
            }
            probe.waitingBlocks.decrement()
            done.open()
        }
        holdQueue.open()
        #expect(done.wait(timeout: .seconds(10)))
        #expect(outcomes.values == ["fulfilled"])
        #expect(eventually(timeout: .seconds(5)) { probe.changes.values.count == 6 })
        #expect(areConsecutiveIncrements(probe.changes.values, count: 6), "\(probe.changes.values)")
        #expect(probe.maxDepth == 1)
        #expect(probe.callsDuringWaitingBlock.value == 0)
    }
}
