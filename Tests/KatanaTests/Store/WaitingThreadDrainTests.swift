import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Which thread ran an updater, as an identity that can cross threads.
private func currentThreadID() -> ObjectIdentifier {
    ObjectIdentifier(Thread.current)
}

/// Counts how many updaters run at the same moment, and the most ever seen.
private final class OverlapProbe: Sendable {
    private let counts = LockedValue((running: 0, mostAtOnce: 0))

    func enter() {
        counts.withLock { counts in
            counts.running += 1
            counts.mostAtOnce = max(counts.mostAtOnce, counts.running)
        }
    }

    func leave() {
        counts.withLock { $0.running -= 1 }
    }

    var maximum: Int {
        counts.value.mostAtOnce
    }
}

/// Adds `amount`, recording the thread it ran on.
private struct IncrementRecordingThread: StateUpdater {
    let amount: Int
    let threads: LockedList<ObjectIdentifier>
    func updateState(_ state: inout CounterState) {
        threads.append(currentThreadID())
        state.counter += amount
        state.applied.append(amount)
    }
}

/// Adds `amount` after `gate` opens (signalling `started` first), watching for overlapping updaters.
private struct GatedIncrement: StateUpdater {
    let amount: Int
    let started: DispatchSemaphore
    let gate: DispatchSemaphore
    let probe: OverlapProbe
    func updateState(_ state: inout CounterState) {
        probe.enter()
        defer { probe.leave() }
        started.signal()
        _ = gate.wait(timeout: .now() + holdTimeout.timeInterval)
        state.counter += amount
        state.applied.append(amount)
    }
}

/// Adds `amount` while watching for overlapping updaters.
private struct ProbedIncrement: StateUpdater {
    let amount: Int
    let probe: OverlapProbe
    func updateState(_ state: inout CounterState) {
        probe.enter()
        defer { probe.leave() }
        state.counter += amount
        state.applied.append(amount)
    }
}

/// Waits on a promise nobody settles, from inside the updater, and records how the wait ended.
private struct WaitsInsideUpdater: StateUpdater {
    let never: Promise<Void>
    let errors: LockedList<String>
    func updateState(_ state: inout CounterState) {
        do {
            try never.wait(timeout: .seconds(5))
            errors.append("returned")
        } catch {
            errors.append("\(error)")
        }
        state.counter += 1
    }
}

private final class Canary: Sendable {}

private struct WeakCanary: Sendable {
    weak let object: Canary?
}

/// A store with one pass-through interceptor that keeps `canary` alive and records what it sees.
private func makeStore(keeping canary: Canary, recordingInto seen: LockedList<String>) -> TestStore {
    let keeper: StoreInterceptor = { _ in
        { next in
            { item in
                _ = canary
                seen.append("\(type(of: item))")
                try next(item)
            }
        }
    }
    return makeStore(interceptors: [keeper])
}

/// A thread blocked on a dispatch promise handles the item itself when the store is idle (store
/// semantics 2 still hold: one updater at a time, in dispatch order). The blocking waits these
/// tests are about run on threads of their own, never on one of Swift concurrency's shared pool.
@Suite struct WaitingThreadDrainTests {
    @Test func waitingOnAnUnhandledUpdater_handlesItOnTheWaitingThread_andLeavesLaterItemsToTheQueue() async throws {
        let store = makeStore()
        let threads = LockedList<ObjectIdentifier>()
        // With the store's queue held, only the waiting thread can handle the first updater: before
        // waiting threads helped, this wait timed out.
        store.engine.updaterQueue.suspend()
        let first = store.dispatch(IncrementRecordingThread(amount: 1, threads: threads))
        let second = store.dispatch(IncrementRecordingThread(amount: 2, threads: threads))
        let waitingThread = try await onThreadOfItsOwn("the wait on the first updater") {
            try first.wait(timeout: defaultTestTimeout)
            return currentThreadID()
        }

        #expect(threads.all == [waitingThread])
        #expect(store.state.applied == [1])
        #expect(second.isPending)

        store.engine.updaterQueue.resume()
        try await onThreadOfItsOwn("the wait on the second updater") { try second.wait(timeout: defaultTestTimeout) }
        #expect(store.state.applied == [1, 2])
        #expect(threads.count == 2)
    }

    @Test func waitingWhileTheQueueIsHandlingAnotherUpdater_waitsInsteadOfRunningAlongside() async throws {
        let store = makeStore()
        let probe = OverlapProbe()
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let blocking = store.dispatch(GatedIncrement(amount: 1, started: started, gate: gate, probe: probe))
        #expect(try await onThreadOfItsOwn("the first updater to start") { started.wait(timeout: .now() + defaultTestTimeout.timeInterval) } == .success)
        let next = store.dispatch(ProbedIncrement(amount: 2, probe: probe))

        // The queue is busy with the first updater, so the waiting thread must not start the second.
        await #expect(throws: KatanaError.waitTimedOut(after: .milliseconds(200))) {
            try await onThreadOfItsOwn("the short wait") { try next.wait(timeout: .milliseconds(200)) }
        }
        gate.signal()
        try await onThreadOfItsOwn("the wait on both updaters") {
            try blocking.wait(timeout: defaultTestTimeout)
            try next.wait(timeout: defaultTestTimeout)
        }
        #expect(store.state.applied == [1, 2])
        #expect(probe.maximum == 1)
    }

    @Test func aWaitInsideAnUpdaterRunByAWaitingThread_isStillReportedAsAWaitOnTheStoreQueue() async throws {
        let store = makeStore()
        let errors = LockedList<String>()
        let never = Promise<Void> { _, _ in }
        store.engine.updaterQueue.suspend()
        defer { store.engine.updaterQueue.resume() }
        try await onThreadOfItsOwn("the wait that runs the updater") {
            try store.dispatch(WaitsInsideUpdater(never: never, errors: errors)).wait(timeout: defaultTestTimeout)
        }
        #expect(errors.all == ["\(KatanaError.waitOnStoreQueue)"])
        #expect(store.state.counter == 1)
    }

    @Test func storeReleasedWhileAWaitingThreadHandlesUpdaters_keepsTheInterceptorsUntilItFinishes() async throws {
        var canary: Canary? = Canary()
        let watched = WeakCanary(object: canary)
        let seen = LockedList<String>()
        var store: TestStore? = canary.map { makeStore(keeping: $0, recordingInto: seen) }
        canary = nil
        let queue = try #require(store?.engine.updaterQueue)
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        queue.suspend()
        store?.dispatch(GatedIncrement(amount: 1, started: started, gate: gate, probe: OverlapProbe()))
        let promise = try #require(store?.dispatch(Increment(amount: 2)))
        let waited = LockedList<String>()
        let waiter = Thread {
            do {
                try promise.wait(timeout: defaultTestTimeout)
                waited.append("ok")
            } catch {
                waited.append("\(error)")
            }
        }
        waiter.start()
        #expect(try await onThreadOfItsOwn("the first updater to start") { started.wait(timeout: .now() + defaultTestTimeout.timeInterval) } == .success)

        // The waiting thread is inside the first updater and has the second still to handle: release
        // the store and let its queue run the release. The interceptors must stay until the waiting
        // thread is done, so the second updater still passes through them.
        store = nil
        queue.resume()
        try await drained(queue)
        #expect(watched.object != nil)

        gate.signal()
        try await waited.waitUntil("the waiting thread to return") { $0 == ["ok"] }
        #expect(seen.all == ["GatedIncrement", "Increment"])
        try await poll("the interceptors to be released") { watched.object == nil }
    }

    @Test func manyThreadsWaitingAndDispatching_keepOneUpdaterAtATimeInDispatchOrder() async throws {
        let store = makeStore()
        let probe = OverlapProbe()
        let waitingThreads = 4
        let roundTrips = 500
        let fireAndForget = 2_000
        let failures = LockedList<String>()
        // `concurrentPerform` runs one iteration on the calling thread: that is a thread of its own.
        try await onThreadOfItsOwn("the waiting threads") {
            DispatchQueue.concurrentPerform(iterations: waitingThreads + 1) { index in
                if index == waitingThreads {
                    for _ in 0 ..< fireAndForget {
                        store.dispatch(ProbedIncrement(amount: 1, probe: probe))
                    }
                    return
                }
                // Each waiting thread's amounts are increasing and unique to it, so its order can be checked.
                for step in 1 ... roundTrips {
                    do {
                        try store.dispatch(ProbedIncrement(amount: (index + 1) * 1_000_000 + step, probe: probe))
                            .wait(timeout: defaultTestTimeout)
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
        }
        try await store.dispatch(ProbedIncrement(amount: 0, probe: probe)).settled()

        #expect(failures.all.isEmpty)
        #expect(probe.maximum == 1)
        let applied = store.state.applied
        #expect(applied.count == waitingThreads * roundTrips + fireAndForget + 1)
        for thread in 1 ... waitingThreads {
            let own = applied.filter { $0 / 1_000_000 == thread }
            #expect(own == (1 ... roundTrips).map { thread * 1_000_000 + $0 })
        }
    }
}
