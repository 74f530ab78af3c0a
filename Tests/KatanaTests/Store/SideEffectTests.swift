import Dispatch
import Foundation
import Testing
@testable import Katana

/// Opens its own latch, then waits for its partner's: only succeeds if both run at the same time.
private struct MeetPartner: ReturningSideEffect {
    let mine: Latch
    let partner: Latch
    func sideEffect(_ context: any AnySideEffectContext) throws -> Bool {
        mine.open()
        return partner.wait(timeout: .seconds(10))
    }
}

/// Reports what the side effect can reach through its context.
private struct InspectContext: SideEffect {
    let seen: Recorder<String>
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
    @Test func sideEffects_runConcurrently() throws {
        let store = makeStore()
        let first = Latch()
        let second = Latch()
        let a = store.dispatch(MeetPartner(mine: first, partner: second))
        let b = store.dispatch(MeetPartner(mine: second, partner: first))
        #expect(try a.wait(timeout: .seconds(15)) == true)
        #expect(try b.wait(timeout: .seconds(15)) == true)
    }

    @Test func sideEffectPromise_resolvesWhenBodyReturns() throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let promise = store.dispatch(BlockingSideEffect(started: started, release: release))
        #expect(started.wait())
        let pendingWhileRunning = promise.isPending
        release.open()
        #expect(pendingWhileRunning)
        try promise.wait(timeout: .seconds(10))
    }

    @Test func sideEffect_doesNotBlockStateUpdaters() throws {
        let store = makeStore()
        let started = Latch()
        let release = Latch()
        let running = store.dispatch(BlockingSideEffect(started: started, release: release))
        #expect(started.wait())
        defer { release.open() }
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 2)
        #expect(running.isPending)
    }

    @Test func returningSideEffect_fulfilsWithItsValue() throws {
        let store = makeStore(initial: CounterState(counter: 41))
        #expect(try store.dispatch(ReadCounter()).wait(timeout: .seconds(10)) == 41)
        #expect(try store.dispatch(Constant(value: -3)).wait(timeout: .seconds(10)) == -3)
    }

    @Test func anyDispatch_fulfilsWithTypeErasedValue() throws {
        let store = makeStore(initial: CounterState(counter: 12))
        let anyStore: any AnyStore = store
        let value = try anyStore.anyDispatch(ReadCounter()).wait(timeout: .seconds(10))
        #expect(value as? Int == 12)
        let updated = try anyStore.anyDispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(updated is Void)
        #expect((anyStore.anyState as? CounterState)?.counter == 13)
    }

    @Test func asyncSideEffect_fulfilsWithItsValue() async throws {
        let store = makeStore(initial: CounterState(counter: 10))
        let value = try await withTimeout { try await store.dispatch(AsyncAdd(amount: 5)).value }
        #expect(value == 15)
        #expect(store.state.applied == [5])
    }

    @Test func asyncSideEffect_throwing_rejectsWithItsError() async throws {
        let store = makeStore()
        await #expect(throws: TestError(code: 31)) {
            try await withTimeout { try await store.dispatch(AsyncFails(code: 31)).value }
        }
    }

    @Test func throwingSideEffect_rejectsWithItsError() {
        let store = makeStore()
        #expect(rejection(of: store.dispatch(Fails(code: 7))) as? TestError == TestError(code: 7))
    }

    @Test func sideEffect_dispatchingAnUpdater_updatesTheState() throws {
        let store = makeStore()
        try store.dispatch(IncrementLater(amount: 4)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 4)
        #expect(store.state.applied == [4])
    }

    @Test func sideEffectContext_givesStateAndStoreDependencies() throws {
        let store = makeStore(initial: CounterState(counter: 9))
        let seen = Recorder<String>()
        try store.dispatch(InspectContext(seen: seen)).wait(timeout: .seconds(10))
        #expect(seen.values == ["counter=9", "dependencies=test dependencies", "same dependencies=true", "any state=9"])
        let identity = try store.dispatch(DependenciesIdentity()).wait(timeout: .seconds(10))
        #expect(identity == ObjectIdentifier(store.dependencies))
    }

    @Test func handBuiltContext_runsSideEffectAgainstFakes() throws {
        let dispatched = Recorder<String>()
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
        #expect(dispatched.values == ["KatanaTests.Increment(3)"])
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
        let value = try await withTimeout { try await AsyncAdd(amount: 2).sideEffect(context) }
        #expect(value == 40)
        #expect(throws: KatanaError.asyncSideEffectCalledSynchronously(sideEffect: "KatanaTests.AsyncAdd")) {
            _ = try AsyncAdd(amount: 2).anySideEffect(context)
        }
    }
}
