import Dispatch
import Testing
@testable import Katana

/// Something an interceptor or dependency keeps alive; the test watches it deallocate.
private final class Canary: Sendable {}

private struct WeakCanary: Sendable {
    weak let object: Canary?
}

/// Dependencies holding a canary, to see that the store lets go of them.
private final class CanaryDependencies: SideEffectDependencyContainer {
    let canary = Canary()
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

/// Store semantics 7: a store released with work pending settles every promise and deallocates.
@Suite struct ReleaseTests {
    /// Waits for every promise; returns the outcomes as "ok" or the KatanaError, "timeout" if one hangs.
    private func outcomes<T>(_ promises: [Promise<T>]) -> [String] {
        promises.map { promise in
            do {
                try promise.wait(timeout: .seconds(10))
                return "ok"
            } catch let error as KatanaError {
                if case .waitTimedOut = error { return "timeout" }
                if case .storeDeallocated = error { return "storeDeallocated" }
                return "\(error)"
            } catch {
                return "\(error)"
            }
        }
    }

    @Test func releasedBeforeReady_rejectsEveryPendingPromiseWithStoreDeallocated() {
        let held = HeldExecutor()
        var store: TestStore? = makeStore(configuration: testConfiguration(stateInitializer: held))
        weak let weakStore = store
        var promises: [Promise<Void>] = []
        for amount in 1...100 {
            if let store {
                promises.append(store.dispatch(Increment(amount: amount)))
                promises.append(store.dispatch(IncrementLater(amount: amount)))
            }
        }
        let returning = store?.dispatch(ReadCounter())
        let erased = store?.anyDispatch(NoChange())
        store = nil
        #expect(weakStore == nil)

        #expect(outcomes(promises) == Array(repeating: "storeDeallocated", count: 200))
        #expect(rejection(of: returning ?? Promise(resolved: 0))?.katana == .storeDeallocated(item: "KatanaTests.ReadCounter"))
        #expect(rejection(of: erased ?? Promise(resolved: ()))?.katana == .storeDeallocated(item: "KatanaTests.NoChange"))
        // Finishing the start-up after the store is gone does nothing harmful.
        held.runHeld()
        #expect(held.heldCount == 0)
    }

    @Test func releasedWhileUpdaterQueueIsBusy_settlesEveryPendingPromise() {
        let started = Latch()
        let release = Latch()
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let blocking = store?.dispatch(BlockingUpdater(started: started, release: release))
        #expect(started.wait())
        var queued: [Promise<Void>] = []
        for amount in 1...200 {
            if let store {
                queued.append(store.dispatch(amount.isMultiple(of: 2) ? Increment(amount: amount) : Increment(amount: -amount)))
                queued.append(store.dispatch(IncrementLater(amount: amount)))
            }
        }
        store = nil
        #expect(weakStore == nil)
        release.open()

        // The running updater completes; everything still waiting in the queue is rejected.
        #expect(outcomes([blocking ?? Promise(rejected: TestError(code: 0))]) == ["ok"])
        #expect(outcomes(queued) == Array(repeating: "storeDeallocated", count: 400))
    }

    @Test func releasedWhileSideEffectRuns_sideEffectFinishesAndLaterDispatchIsRejected() throws {
        struct BlockThenIncrement: SideEffect {
            let started: Latch
            let release: Latch
            func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
                started.open()
                release.wait(timeout: .seconds(20))
                try context.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
            }
        }
        let started = Latch()
        let release = Latch()
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let running = try #require(store?.dispatch(BlockThenIncrement(started: started, release: release)))
        #expect(started.wait())
        store = nil
        #expect(weakStore == nil)
        release.open()
        #expect(rejection(of: running)?.katana == .storeDeallocated(item: "KatanaTests.Increment"))
    }

    @Test func releasedStore_letsGoOfInterceptorsAndDependencies() throws {
        let interceptorCanary: WeakCanary
        let dependencyCanary: WeakCanary
        do {
            let canary = Canary()
            interceptorCanary = WeakCanary(object: canary)
            let store = Store<CounterState, CanaryDependencies>(
                interceptors: [interceptor { item, next in
                    withExtendedLifetime(canary) {}
                    try next(item)
                }],
                stateInitializer: { CounterState() },
                configuration: .init(listenersAsyncProvider: DispatchQueue(label: "test.canary.listeners"))
            )
            dependencyCanary = WeakCanary(object: store.dependencies.canary)
            store.addListener { _, _ in }
            try store.dispatch(Increment()).wait(timeout: .seconds(10))
            #expect(store.state.counter == 1)
        }
        #expect(eventually { interceptorCanary.object == nil && dependencyCanary.object == nil })
    }
}
