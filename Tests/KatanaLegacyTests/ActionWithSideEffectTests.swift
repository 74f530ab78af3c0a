import Dispatch
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// What an `ActionWithSideEffect` saw when its side effect ran.
struct SideEffectCall: Sendable, Equatable {
    let previousCounter: Int
    let currentCounter: Int
    let dependenciesMatch: Bool
}

/// Adds to the counter, then records the states around its own update and dispatches `follow` (if any).
@available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
struct AddAndRecord: ActionWithSideEffect, LegacyStateAction {
    let amount: Int
    let expectedDependencies: LegacyDependencies?
    let recorder: LockedList<SideEffectCall>
    var follow: String?

    func update(_ state: inout LegacyState) {
        state.counter += amount
        state.log.append("add \(amount)")
    }

    func sideEffect(
        currentState: State,
        previousState: State,
        dispatch: @escaping StoreDispatch,
        dependencies: SideEffectDependencyContainer
    ) {
        guard let previous = previousState as? LegacyState, let current = currentState as? LegacyState else {
            return
        }
        recorder.append(SideEffectCall(
            previousCounter: previous.counter,
            currentCounter: current.counter,
            dependenciesMatch: expectedDependencies.map { $0 === dependencies } ?? false
        ))
        if let follow {
            dispatch(AppendAction(tag: follow))
        }
    }
}

/// Returns a state of the wrong type; its side effect must never run.
@available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
struct WrongStateWithSideEffect: ActionWithSideEffect {
    let recorder: LockedList<Int>
    func updatedState(currentState: State) -> State {
        ForeignState()
    }
    func sideEffect(currentState: State, previousState: State, dispatch: @escaping StoreDispatch, dependencies: SideEffectDependencyContainer) {
        recorder.append(1)
    }
}

@Suite struct ActionWithSideEffectTests {
    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_runsOnceAfterTheUpdate_withThePreviousAndNewState() async throws {
        let store = makeStore(initial: LegacyState(counter: 10))
        let recorder = LockedList<SideEffectCall>()
        try await store.dispatch(AddAndRecord(amount: 5, expectedDependencies: store.dependencies, recorder: recorder))
            .settled()
        try await recorder.waitForCount(1)
        // A second, independent side effect round trip: by the time it ran, a duplicate of the first would have too.
        let second = LockedList<SideEffectCall>()
        try await store.dispatch(AddAndRecord(amount: 1, expectedDependencies: nil, recorder: second)).settled()
        try await second.waitForCount(1)
        #expect(second.count == 1)
        #expect(recorder.all == [SideEffectCall(previousCounter: 10, currentCounter: 15, dependenciesMatch: true)])
        #expect(second.all == [SideEffectCall(previousCounter: 15, currentCounter: 16, dependenciesMatch: false)])
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_seesTheStatesAroundItsOwnUpdate_evenWhenMoreUpdatesFollowAtOnce() async throws {
        let store = makeStore()
        let recorder = LockedList<SideEffectCall>()
        store.dispatch(AddAction(amount: 100))
        store.dispatch(AddAndRecord(amount: 7, expectedDependencies: store.dependencies, recorder: recorder))
        for _ in 0..<50 {
            store.dispatch(AddAction(amount: 1))
        }
        try await settle(store)
        try await recorder.waitForCount(1)
        #expect(recorder.count == 1)
        #expect(recorder.all.first == SideEffectCall(previousCounter: 100, currentCounter: 107, dependenciesMatch: true))
        #expect(store.state.counter == 157)
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_dispatch_dispatchesFurtherActionsAfterTheSource() async throws {
        let store = makeStore()
        let recorder = LockedList<SideEffectCall>()
        try await store.dispatch(AddAndRecord(amount: 2, expectedDependencies: nil, recorder: recorder, follow: "followed"))
            .settled()
        try await store.waitUntil { store.state.log == ["add 2", "followed"] }
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_dispatch_goesThroughTheStoreInterceptors() async throws {
        let seen = LockedList<String>()
        let spy: StoreInterceptor = { _ in { next in { item in
            seen.append(item.debugDescription)
            try next(item)
        } } }
        let store = makeStore(interceptors: [spy])
        let recorder = LockedList<SideEffectCall>()
        store.dispatch(AddAndRecord(amount: 1, expectedDependencies: nil, recorder: recorder, follow: "via interceptors"))
        try await store.waitUntil { store.state.log.last == "via interceptors" }
        #expect(seen.all.contains { $0.hasSuffix("AppendAction") })
        #expect(seen.all.first?.hasSuffix("AddAndRecord") == true)
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_doesNotRun_whenTheUpdateIsRejected() async throws {
        let store = makeStore()
        let recorder = LockedList<Int>()
        await #expect(throws: KatanaError.self) {
            try await store.dispatch(WrongStateWithSideEffect(recorder: recorder)).settled()
        }
        // Give a wrongly scheduled side effect the chance to show up: an unrelated side effect round trip.
        let other = LockedList<SideEffectCall>()
        store.dispatch(AddAndRecord(amount: 1, expectedDependencies: nil, recorder: other))
        try await other.waitForCount(1)
        #expect(other.count == 1)
        #expect(recorder.all.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_dependencies_areTheStoresContainer_builtWithThe2xInitialiser() async throws {
        let store = makeStore()
        // The container's 2.x `dispatch` reaches the store, and its `getState` reads it.
        store.dependencies.dispatch(AddAction(amount: 4))
        try await store.waitUntil { store.state.counter == 4 }
        #expect((store.dependencies.getState() as? LegacyState)?.counter == 4)
    }
}

/// A legacy side effect that dispatches a modern updater and a modern side effect.
@available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
struct DispatchesModernItems: ActionWithSideEffect, LegacyStateAction {
    func update(_ state: inout LegacyState) {
        state.log.append("legacy")
    }

    func sideEffect(currentState: State, previousState: State, dispatch: @escaping StoreDispatch, dependencies: SideEffectDependencyContainer) {
        dispatch(AppendUpdater(tag: "modern updater"))
        dispatch(AppendLater(tag: "modern side effect"))
    }
}

/// A modern side effect that appends its tag through an updater.
@available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
struct AppendLater: SideEffect {
    let tag: String
    func sideEffect(_ context: SideEffectContext<LegacyState, LegacyDependencies>) throws {
        try context.dispatch(AppendUpdater(tag: tag)).wait(timeout: .seconds(10))
    }
}

@Suite struct LegacyDispatchOfModernItemsTests {
    @available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect")
    @Test func sideEffect_dispatch_acceptsModernUpdatersAndSideEffects() async throws {
        let store = makeStore()
        try await store.dispatch(DispatchesModernItems()).settled()
        try await store.waitUntil { store.state.log.count == 3 }
        #expect(store.state.log.first == "legacy")
        #expect(Set(store.state.log.dropFirst()) == ["modern updater", "modern side effect"])
    }
}
