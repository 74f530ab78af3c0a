import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Something an interceptor or dependency keeps alive; the test watches it deallocate.
private final class Canary: Sendable {}

private struct WeakCanary: Sendable {
    weak let object: Canary?
}

/// A side effect that carries a canary and does nothing with it.
private struct CarryCanary: SideEffect {
    let canary: Canary
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) {}
}

/// Dependencies holding a canary, to see that the store lets go of them.
private final class CanaryDependencies: SideEffectDependencyContainer {
    let canary = Canary()
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

/// Store semantics 7: work a store accepted keeps it alive until handled; then it goes with its
/// last reference, and whatever reaches it afterwards is rejected.
@Suite struct ReleaseTests {
    /// Awaits every promise; returns the outcomes as "ok" or the KatanaError, "timeout" if one hangs.
    private func outcomes<T>(_ promises: [Promise<T>]) async -> [String] {
        var outcomes: [String] = []
        for promise in promises {
            do {
                try await promise.settled()
                outcomes.append("ok")
            } catch is TimedOut {
                outcomes.append("timeout")
            } catch let error as KatanaError {
                if case .storeDeallocated = error {
                    outcomes.append("storeDeallocated")
                } else {
                    outcomes.append("\(error)")
                }
            } catch {
                outcomes.append("\(error)")
            }
        }
        return outcomes
    }

    @Test func releasedBeforeReady_handlesWhatWaitedOnceReady_thenGoes() async throws {
        let held = HeldExecutor()
        var store: TestStore? = makeStore(configuration: testConfiguration(stateInitializer: held))
        weak let weakStore = store
        let changes = LockedList<Int>()
        store?.addListener { _, new in changes.append(new.counter) }
        var promises: [Promise<Void>] = []
        for amount in 1...100 {
            if let store {
                promises.append(store.dispatch(Increment(amount: amount)))
            }
        }
        let returning = try #require(store?.dispatch(ReadCounter()))
        let erased = try #require(store?.anyDispatch(NoChange()))
        store = nil
        #expect(weakStore != nil, "the items waiting for the store to be ready hold it")

        held.runHeld()
        #expect(await outcomes(promises) == Array(repeating: "ok", count: 100))
        #expect(try await returning.settled() == 5050)
        #expect(await outcomes([erased]) == ["ok"])
        #expect(changes.all.last == 5050)
        try await poll("the store to be released once its work was done") { weakStore == nil }
    }

    @Test func releasedWhileUpdaterQueueIsBusy_handlesEveryQueuedItem_thenGoes() async throws {
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let changes = LockedList<Int>()
        store?.addListener { _, new in changes.append(new.counter) }
        let hold = try #require(try await store?.holdUpdaterQueue())
        var queued: [Promise<Void>] = []
        for amount in 1...200 {
            if let store {
                queued.append(store.dispatch(amount.isMultiple(of: 2) ? Increment(amount: amount) : Increment(amount: -amount)))
            }
        }
        store = nil
        #expect(weakStore != nil, "the queued items hold the store")
        hold.release()

        #expect(await outcomes([hold.promise]) == ["ok"])
        #expect(await outcomes(queued) == Array(repeating: "ok", count: 200))
        // The blocking updater's 1000, then 2 + 4 + … + 200 − (1 + 3 + … + 199) = 100
        #expect(changes.all.last == 1100)
        try await poll("the store to be released once its work was done") { weakStore == nil }
    }

    /// Katana 3.x's "build a store in a helper, dispatch, return": what was dispatched is handled.
    @Test func aStoreMadeInAFunctionThatReturns_handlesWhatItWasGiven() async throws {
        let changes = LockedList<Int>()
        func dispatchAndWalkAway() -> (promises: [Promise<Void>], store: WeakBox<TestStore>) {
            let store = makeStore()
            store.addListener { _, new in changes.append(new.counter) }
            return ((1...50).map { store.dispatch(Increment(amount: $0)) }, WeakBox(store))
        }
        let (promises, weakStore) = dispatchAndWalkAway()
        #expect(await outcomes(promises) == Array(repeating: "ok", count: 50))
        #expect(changes.all.last == 1275)
        try await poll("the store to be released once its work was done") { weakStore.value == nil }
    }

    /// A side effect that never ends does not keep its store: running work is not waiting work.
    @Test func aSideEffectThatNeverEnds_doesNotKeepTheStoreAlive() async throws {
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let running = try #require(try await store?.holdWorker())
        defer { running.release() }
        store = nil
        try await poll("the store to be released while its side effect runs") { weakStore == nil }
        running.release()
        #expect(await outcomes([running.promise]) == ["ok"])
    }

    @Test func aStoreThatRanABurstOfSideEffects_letsGoOfEveryItem_onceItIsIdle() async throws {
        let store = makeStore()
        var canaries: [WeakCanary] = []
        var promises: [Promise<Void>] = []
        for _ in 0 ..< 500 {
            let canary = Canary()
            canaries.append(WeakCanary(object: canary))
            promises.append(store.dispatch(CarryCanary(canary: canary)))
        }
        #expect(await outcomes(promises) == Array(repeating: "ok", count: 500))
        // A promise keeps the item it was made for: the test lets go of them. The store lives on,
        // and nothing more is dispatched: what its workers finished with is let go of all the
        // same (none is kept for a next dispatch that does not come).
        promises.removeAll()
        try await poll("every side effect's item to be released") { canaries.allSatisfy { $0.object == nil } }
        withExtendedLifetime(store) {}
    }

    @Test func releasedWhileSideEffectRuns_sideEffectFinishesAndLaterDispatchIsRejected() async throws {
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let running = try #require(try await store?.holdWorker { context in
            try context.dispatch(Increment(amount: 1)).wait(timeout: defaultTestTimeout)
        })
        store = nil
        // The inbox lets go of the store once the drain that handed out the side effect ends.
        try await poll("the store to be released") { weakStore == nil }
        running.release()
        #expect(try await rejection(of: running.promise)?.katana == .storeDeallocated(item: "KatanaTests.Increment"))
    }

    @Test func releasedStore_letsGoOfInterceptorsAndDependencies() async throws {
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
            try await store.dispatch(Increment()).settled()
            #expect(store.state.counter == 1)
        }
        try await poll("the interceptors and dependencies to be released") {
            interceptorCanary.object == nil && dependencyCanary.object == nil
        }
    }
}

/// Holds an object without keeping it alive, to see when it is deallocated.
private final class WeakBox<T: AnyObject>: @unchecked Sendable {
    // @unchecked: Swift loads and stores weak references atomically; `value` is set once, in init.
    weak var value: T?
    init(_ value: T) { self.value = value }
}
