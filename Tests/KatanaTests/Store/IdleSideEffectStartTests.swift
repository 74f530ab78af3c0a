import Dispatch
import Foundation
import Testing
@testable import Katana

/// Reads the counter from a typed async side effect.
private struct ReadCounterAsync: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws -> Int {
        context.getState().counter
    }
}

/// A side effect dispatched to an idle store starts from the dispatching thread, without a hop
/// through the store's queue; anything dispatched before it still comes first.
@Suite struct IdleSideEffectStartTests {
    // Async tests that poll without blocking: the async side effects need the cooperative thread
    // pool, which blocking waits in parallel tests could exhaust.
    @Test func sideEffectOnAnIdleStore_startsWithoutTheStoreQueue() async throws {
        let store = makeStore()
        // With the store's queue held, only the direct start can run these (no `wait` before they
        // settle: a waiting thread would handle them itself).
        store.engine.updaterQueue.suspend()
        defer { store.engine.updaterQueue.resume() }
        let read = store.dispatch(ReadCounter())
        let readAsync = store.dispatch(ReadCounterAsync())
        #expect(await eventuallyAsync { !read.isPending && !readAsync.isPending })
        #expect(read.outcome.flatMap { try? $0.get() } == 0)
        #expect(readAsync.outcome.flatMap { try? $0.get() } == 0)
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
        #expect(await eventuallyAsync { !read.isPending && !readAsync.isPending })
        #expect(read.outcome.flatMap { try? $0.get() } == 7)
        #expect(readAsync.outcome.flatMap { try? $0.get() } == 7)
    }

    @Test func sideEffectsDispatchedRightAfterUpdaters_alwaysSeeThem() throws {
        let store = makeStore()
        for expected in 1 ... 500 {
            store.dispatch(Increment())
            #expect(try store.dispatch(ReadCounter()).wait(timeout: .seconds(10)) == expected)
        }
    }

    @Test func withInterceptors_aSideEffectStillStartsWithoutTheStoreQueue_andItsInterceptorsRunOnItsWorker() throws {
        let seen = Recorder<String>()
        let onStoreQueue = Recorder<Bool>()
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
        #expect(try store.dispatch(ReadCounter()).wait(timeout: .seconds(10)) == 0)
        #expect(seen.values == ["ReadCounter"])
        #expect(onStoreQueue.values == [false])
    }
}
