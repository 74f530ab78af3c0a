import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Reads the counter from a typed async side effect.
private struct ReadCounterAsync: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws -> Int {
        context.getState().counter
    }
}

/// A side effect dispatched to an idle store starts from the dispatching thread, without a hop
/// through the store's queue; anything dispatched before it still comes first.
@Suite struct IdleSideEffectStartTests {
    // Async tests that wait without blocking: the async side effects need the cooperative thread
    // pool, which blocking waits in parallel tests could exhaust.
    @Test func sideEffectOnAnIdleStore_startsWithoutTheStoreQueue() async throws {
        let store = makeStore()
        // With the store's queue held, only the direct start can run these (no `wait` before they
        // settle: a waiting thread would handle them itself).
        store.engine.updaterQueue.suspend()
        defer { store.engine.updaterQueue.resume() }
        let read = store.dispatch(ReadCounter())
        let readAsync = store.dispatch(ReadCounterAsync())
        // Awaiting a promise observes it; unlike `wait`, it handles nothing on this thread.
        #expect(try await read.settled() == 0)
        #expect(try await readAsync.settled() == 0)
    }

    @Test func sideEffectAfterAWaitingUpdater_waitsForIt() async throws {
        let store = makeStore()
        store.engine.updaterQueue.suspend()
        store.dispatch(Increment(amount: 7))
        let read = store.dispatch(ReadCounter())
        let readAsync = store.dispatch(ReadCounterAsync())
        try await Task.sleep(for: .milliseconds(100))
        #expect(read.isPending)
        #expect(readAsync.isPending)
        store.engine.updaterQueue.resume()
        #expect(try await read.settled() == 7)
        #expect(try await readAsync.settled() == 7)
    }

    @Test func sideEffectsDispatchedRightAfterUpdaters_alwaysSeeThem() async throws {
        let store = makeStore()
        for expected in 1 ... 500 {
            store.dispatch(Increment())
            #expect(try await store.dispatch(ReadCounter()).settled() == expected)
        }
    }

    @Test func withInterceptors_aSideEffectStillStartsWithoutTheStoreQueue_andItsInterceptorsRunOnItsWorker() async throws {
        let seen = LockedList<String>()
        let onStoreQueue = LockedList<Bool>()
        let recorder: StoreInterceptor = { _ in
            { next in
                { item in
                    seen.append("\(type(of: item))")
                    onStoreQueue.append(StoreQueueMarker.isOnStoreQueue)
                    try next(item)
                }
            }
        }
        let store = makeStore(interceptors: [recorder])
        store.engine.updaterQueue.suspend()
        defer { store.engine.updaterQueue.resume() }
        #expect(try await store.dispatch(ReadCounter()).settled() == 0)
        #expect(seen.all == ["ReadCounter"])
        #expect(onStoreQueue.all == [false])
    }

    // MARK: - A synchronous side effect taken in place

    @Test func aSynchronousSideEffectToAnIdleStore_isTakenInPlace_andTheStoreStaysIdle() async throws {
        let store = makeStore()
        store.engine.updaterQueue.suspend()
        defer { store.engine.updaterQueue.resume() }
        let drainer = try #require(idleDrainer(of: store))
        let before = store.engine.inbox.withLock { ($0.enqueuedCount, drainer.takenInPlace) }
        let read = store.dispatch(ReadCounter())
        // Given its entry under the inbox's lock: counted, taken in place (the usual way, handed
        // the drain right, would also leave the store idle by now), and idle.
        let (after, takenInPlace, idle) = store.engine.inbox.withLock { inbox in
            (inbox.enqueuedCount, drainer.takenInPlace, inbox.drainerWhileIdle != nil)
        }
        #expect(after == before.0 + 1)
        #expect(takenInPlace == before.1 + 1)
        #expect(idle)
        #expect(try await read.settled() == 0)
    }

    @Test func aSynchronousSideEffectTheRegistryWouldRefuse_goesTheUsualWay_andItsPromiseSaysWhy() async throws {
        // The registry's shutdown cancels new side effects before the inbox's intake closes (two
        // locks, one after the other): one dispatched in between is not taken in place, and the
        // usual path rejects it instead of leaving its promise unsettled.
        let store = makeStore()
        let runner = try #require(store.engine.sideEffects.withLock { $0 })
        runner.cancelForShutdown()
        let drainer = try #require(idleDrainer(of: store))
        await #expect(throws: KatanaError.cancelledByShutdown(item: typeName(ReadCounter.self))) {
            try await store.dispatch(ReadCounter()).settled()
        }
        #expect(store.engine.inbox.withLock { _ in drainer.takenInPlace } == 0)
    }

    /// The store's drainer while it is idle (read under the inbox's lock, which guards it then).
    private func idleDrainer(of store: TestStore) -> Drainer<CounterState>? {
        store.engine.inbox.withLock { $0.drainerWhileIdle?.takeUnretainedValue() as? Drainer<CounterState> }
    }
}
