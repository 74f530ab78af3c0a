import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Keeps the context it was given in `kept`, to use it after the store is gone.
private struct KeepContext: SideEffect {
    let kept: LockedValue<SideEffectContext<CounterState, TestDependencies>?>
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        kept.withLock { $0 = context }
    }
}

/// Store semantics 5: bad input rejects with a specific KatanaError and the store keeps working.
@Suite struct BadInputTests {
    /// The store still applies a valid updater after the bad input.
    private func expectStoreStillWorks(_ store: TestStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = store.state.counter
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(store.state.counter == before + 1, sourceLocation: sourceLocation)
    }

    /// For an updater that met the wrong state type: the error's description names the updater
    /// and both state types, the store's state of 3 is untouched, and the store still works.
    private func expectTheMismatch(
        _ error: (any Error)?, namesUpdater updater: String, in store: TestStore, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let description = error.map { "\($0)" } ?? ""
        for name in [updater, "KatanaTests.CounterState", "KatanaTests.OtherState"] {
            #expect(description.contains(name), sourceLocation: sourceLocation)
        }
        #expect(store.state == CounterState(counter: 3), sourceLocation: sourceLocation)
        try await expectStoreStillWorks(store, sourceLocation: sourceLocation)
    }

    /// Dispatches `item`, of no kind the store handles, to a new store: checks that it is rejected
    /// with `expected`, whose description names the item, and that the store is untouched and
    /// still works.
    private func expectRejected(
        _ item: any Dispatchable, with expected: KatanaError, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let store = makeStore()
        let error = try await rejection(of: store.anyDispatch(item))
        #expect(error?.katana == expected, sourceLocation: sourceLocation)
        #expect(error.map { "\($0)" }?.contains(String(reflecting: type(of: item))) == true, sourceLocation: sourceLocation)
        #expect(store.state == CounterState(), sourceLocation: sourceLocation)
        try await expectStoreStillWorks(store, sourceLocation: sourceLocation)
    }

    @Test func neitherUpdaterNorSideEffect_rejectsWithUnsupportedDispatchable() async throws {
        try await expectRejected(NotHandleable(), with: .unsupportedDispatchable(item: "KatanaTests.NotHandleable"))
    }

    @Test func bothUpdaterAndSideEffect_rejectsWithAmbiguousDispatchable() async throws {
        try await expectRejected(BothKinds(), with: .ambiguousDispatchable(item: "KatanaTests.BothKinds"))
    }

    @Test func updaterOfAnotherStateType_rejectsWithStateTypeMismatch() async throws {
        let store = makeStore(initial: CounterState(counter: 3))
        let error = try await rejection(of: store.dispatch(SetText(text: "x")))
        #expect(error?.katana == .stateTypeMismatch(
            updater: "KatanaTests.SetText", expected: "KatanaTests.CounterState", actual: "KatanaTests.OtherState"
        ))
        try await expectTheMismatch(error, namesUpdater: "KatanaTests.SetText", in: store)
    }

    @Test func updaterReturningWrongStateType_rejectsWithInvalidStateReturned() async throws {
        let store = makeStore(initial: CounterState(counter: 3))
        let error = try await rejection(of: store.dispatch(ReturnsWrongState()))
        #expect(error?.katana == .invalidStateReturned(
            updater: "KatanaTests.ReturnsWrongState", expected: "KatanaTests.CounterState", actual: "KatanaTests.OtherState"
        ))
        try await expectTheMismatch(error, namesUpdater: "KatanaTests.ReturnsWrongState", in: store)
    }

    @Test func sideEffectWithMismatchedContext_rejectsWithSideEffectContextMismatch() async throws {
        let store = makeStore()
        let error = try await rejection(of: store.dispatch(WrongContextSideEffect()))
        let expected = KatanaError.sideEffectContextMismatch(
            sideEffect: "KatanaTests.WrongContextSideEffect",
            expected: "Katana.SideEffectContext<KatanaTests.OtherState, Katana.EmptySideEffectDependencyContainer>",
            actual: "Katana.SideEffectContext<KatanaTests.CounterState, KatanaTests.TestDependencies>"
        )
        #expect(error?.katana == expected)
        let description = error.map { "\($0)" } ?? ""
        #expect(description.contains("KatanaTests.WrongContextSideEffect"))
        #expect(description.contains("KatanaTests.OtherState"))
        #expect(description.contains("KatanaTests.TestDependencies"))
        try await expectStoreStillWorks(store)
    }

    @Test func asyncSideEffectWithMismatchedContext_rejectsWithSideEffectContextMismatch() async throws {
        let store = makeStore()
        do {
            _ = try await store.dispatch(WrongContextAsyncSideEffect()).settled()
            Issue.record("expected a rejection")
        } catch let error as KatanaError {
            guard case .sideEffectContextMismatch(let sideEffect, let expected, let actual) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(sideEffect == "KatanaTests.WrongContextAsyncSideEffect")
            #expect(expected.contains("KatanaTests.OtherState"))
            #expect(actual.contains("KatanaTests.CounterState"))
        }
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(store.state.counter == 1)
    }

    @Test func dispatchThroughSideEffectContextAfterStoreIsGone_rejectsWithStoreDeallocated() async throws {
        var store: TestStore? = makeStore()
        weak let weakStore = store
        let kept = LockedValue<SideEffectContext<CounterState, TestDependencies>?>(nil)
        try await store?.dispatch(KeepContext(kept: kept)).settled()
        store = nil
        // The store goes once the thread that handled its last item lets go of it, which can be
        // just after the promise waited on has settled (docs/Lifetimes.md, "Releasing a store").
        try await poll("the store to be released") { weakStore == nil }
        let context = try #require(kept.value)

        let updater = try await rejection(of: context.dispatch(Increment(amount: 1)))
        #expect(updater?.katana == .storeDeallocated(item: "KatanaTests.Increment"))
        #expect(updater.map { "\($0)" }?.contains("KatanaTests.Increment") == true)
        let sideEffect = try await rejection(of: context.dispatch(ReadCounter()))
        #expect(sideEffect?.katana == .storeDeallocated(item: "KatanaTests.ReadCounter"))
        let erased = try await rejection(of: context.anyDispatch(NoChange()))
        #expect(erased?.katana == .storeDeallocated(item: "KatanaTests.NoChange"))
    }

    @Test func dispatchThroughDependenciesClosureAfterStoreIsGone_rejectsWithStoreDeallocated() async throws {
        var store: Store<CounterState, KeepingDependencies>? = Store(
            interceptors: [],
            stateInitializer: { CounterState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "test.listeners"))
        )
        weak let weakStore = store
        let dependencies = try #require(store?.dependencies)
        // While the store lives, the closure dispatches to it.
        _ = try await dependencies.dispatch(Increment(amount: 2)).settled()
        #expect(store?.state.counter == 2)
        store = nil
        // The store goes once the thread that handled its last item lets go of it, which can be
        // just after the promise waited on has settled (docs/Lifetimes.md, "Releasing a store").
        try await poll("the store to be released") { weakStore == nil }
        let error = try await rejection(of: dependencies.dispatch(Increment(amount: 1)))
        #expect(error?.katana == .storeDeallocated(item: "KatanaTests.Increment"))
    }

    /// Reading the state before the store is ready is the one documented precondition.
    @Test func readingStateBeforeReady_stopsWithMessageNamingTheFix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let held = HeldExecutor()
            let store = makeStore(configuration: testConfiguration(stateInitializer: held))
            _ = store.state
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("before the store was ready"))
        #expect(message.contains("isReady"))
    }
}
