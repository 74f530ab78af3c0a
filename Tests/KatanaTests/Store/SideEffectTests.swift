import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Opens its own latch, then waits for its partner's: only succeeds if both run at the same time.
private struct MeetPartner: ReturningSideEffect {
    let mine: Latch
    let partner: Latch
    func sideEffect(_ context: any AnySideEffectContext) throws -> Bool {
        mine.open()
        return partner.wait(timeout: holdTimeout)
    }
}

/// Reports what the side effect can reach through its context.
private struct InspectContext: SideEffect {
    let seen: LockedList<String>
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        seen.append("counter=\(context.getState().counter)")
        seen.append("dependencies=\(context.dependencies.label)")
        seen.append("same dependencies=\(context.anyDependencies === context.dependencies)")
        seen.append("any state=\((context.getAnyState() as? CounterState)?.counter ?? -1)")
    }
}

private struct DependenciesIdentity: ReturningSideEffect {
    func sideEffect(_ context: any AnySideEffectContext) throws -> ObjectIdentifier {
        ObjectIdentifier(context.anyDependencies)
    }
}

/// Store semantics 3: side effects.
@Suite struct SideEffectTests {
    @Test func sideEffects_runConcurrently() async throws {
        let store = makeStore()
        let first = Latch()
        let second = Latch()
        let a = store.dispatch(MeetPartner(mine: first, partner: second))
        let b = store.dispatch(MeetPartner(mine: second, partner: first))
        #expect(try await a.settled() == true)
        #expect(try await b.settled() == true)
    }

    @Test func sideEffectPromise_resolvesWhenBodyReturns() async throws {
        let store = makeStore()
        let hold = try await store.holdWorker()
        let promise = hold.promise
        let pendingWhileRunning = promise.isPending
        hold.release()
        #expect(pendingWhileRunning)
        try await promise.settled()
    }

    @Test func sideEffect_doesNotBlockStateUpdaters() async throws {
        let store = makeStore()
        let hold = try await store.holdWorker()
        let running = hold.promise
        defer { hold.release() }
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(store.state.counter == 2)
        #expect(running.isPending)
    }

    @Test func returningSideEffect_fulfilsWithItsValue() async throws {
        let store = makeStore(initial: CounterState(counter: 41))
        #expect(try await store.dispatch(ReadCounter()).settled() == 41)
        #expect(try await store.dispatch(Constant(value: -3)).settled() == -3)
    }

    @Test func anyDispatch_fulfilsWithTypeErasedValue() async throws {
        let store = makeStore(initial: CounterState(counter: 12))
        let anyStore: any AnyStore = store
        let value = try await anyStore.anyDispatch(ReadCounter()).settled()
        #expect(value as? Int == 12)
        let updated = try await anyStore.anyDispatch(Increment(amount: 1)).settled()
        #expect(updated is Void)
        #expect((anyStore.anyState as? CounterState)?.counter == 13)
    }

    @Test func asyncSideEffect_fulfilsWithItsValue() async throws {
        let store = makeStore(initial: CounterState(counter: 10))
        let value = try await store.dispatch(AsyncAdd(amount: 5)).settled()
        #expect(value == 15)
        #expect(store.state.applied == [5])
    }

    @Test func asyncSideEffect_throwing_rejectsWithItsError() async throws {
        let store = makeStore()
        await #expect(throws: TestError(code: 31)) {
            try await store.dispatch(AsyncFails(code: 31)).settled()
        }
    }

    @Test func throwingSideEffect_rejectsWithItsError() async throws {
        let store = makeStore()
        #expect(try await rejection(of: store.dispatch(Fails(code: 7))) as? TestError == TestError(code: 7))
    }

    @Test func sideEffect_dispatchingAnUpdater_updatesTheState() async throws {
        let store = makeStore()
        try await store.dispatch(IncrementLater(amount: 4)).settled()
        #expect(store.state.counter == 4)
        #expect(store.state.applied == [4])
    }

    @Test func sideEffectContext_givesStateAndStoreDependencies() async throws {
        let store = makeStore(initial: CounterState(counter: 9))
        let seen = LockedList<String>()
        try await store.dispatch(InspectContext(seen: seen)).settled()
        #expect(seen.all == ["counter=9", "dependencies=test dependencies", "same dependencies=true", "any state=9"])
        let identity = try await store.dispatch(DependenciesIdentity()).settled()
        #expect(identity == ObjectIdentifier(store.dependencies))
    }

    @Test func handBuiltContext_runsSideEffectAgainstFakes() throws {
        let dispatched = LockedList<String>()
        let dependencies = TestDependencies(dispatch: { _ in Promise(resolved: ()) }, getState: { CounterState() })
        let context = SideEffectContext<CounterState, TestDependencies>(
            dependencies: dependencies,
            getState: { CounterState(counter: 77) },
            dispatch: { item in
                dispatched.append(item.debugDescription + ((item as? Increment).map { "(\($0.amount))" } ?? ""))
                return Promise(resolved: ())
            }
        )
        try IncrementLater(amount: 3).sideEffect(context)
        #expect(dispatched.all == ["KatanaTests.Increment(3)"])
        #expect(try ReadCounter().sideEffect(context) == 77)
        #expect(try ReadCounter().anySideEffect(context) as? Int == 77)
        #expect(context.dependencies === dependencies)
    }

    @Test func handBuiltContext_rejectedDispatch_reachesTheSideEffect() {
        let context = SideEffectContext<CounterState, TestDependencies>(
            dependencies: TestDependencies(dispatch: { _ in Promise(resolved: ()) }, getState: { CounterState() }),
            getState: { CounterState() },
            dispatch: { _ in Promise(rejected: TestError(code: 5)) }
        )
        #expect(throws: TestError(code: 5)) {
            try IncrementLater(amount: 1).sideEffect(context)
        }
    }

    @Test func handBuiltContext_asyncSideEffectReturnsValue() async throws {
        let context = SideEffectContext<CounterState, TestDependencies>(
            dependencies: TestDependencies(dispatch: { _ in Promise(resolved: ()) }, getState: { CounterState() }),
            getState: { CounterState(counter: 40) },
            dispatch: { _ in Promise(resolved: ()) }
        )
        let value = try await withTimeout("the side effect") { try await AsyncAdd(amount: 2).sideEffect(context) }
        #expect(value == 40)
        #expect(throws: KatanaError.asyncSideEffectCalledSynchronously(sideEffect: "KatanaTests.AsyncAdd")) {
            _ = try AsyncAdd(amount: 2).anySideEffect(context)
        }
    }
}
