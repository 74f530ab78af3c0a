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
        let before = store.engine.inbox.withLock { $0.enqueuedCount }
        let read = store.dispatch(ReadCounter())
        // Given its entry under the inbox's lock: counted, and no drain or right was needed.
        let (after, idle) = store.engine.inbox.withLock { inbox in
            (inbox.enqueuedCount, inbox.drainerWhileIdle != nil)
        }
        #expect(after == before + 1)
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
        #expect(store.engine.inbox.withLock { $0.drainerWhileIdle } != nil)
        await #expect(throws: KatanaError.cancelledByShutdown(item: typeName(ReadCounter.self))) {
            try await store.dispatch(ReadCounter()).settled()
        }
    }
}
