import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

// `store.dispatch(item)` with `item: any Dispatchable`, as Katana 3.x allowed (deprecated: anyDispatch).
@Suite struct ExistentialDispatchTests {
    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func existentialDispatch_ofAStateUpdater_updatesTheState_andSettlesWithVoid() async throws {
        let store = makeStore()
        let items: [any Dispatchable] = [AppendAction(tag: "legacy"), AppendUpdater(tag: "modern")]
        for item in items {
            let value = try await store.dispatch(item).settled()
            #expect(value is Void)
        }
        #expect(store.state.log == ["legacy", "modern"])
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func existentialDispatch_ofSideEffects_runsThem_andCarriesTheirValue() async throws {
        let store = makeStore()
        let ran = LockedList<String>()
        let effect: any Dispatchable = SwiftFlowProbeSideEffect(ran: ran)
        try await store.dispatch(effect).settled()
        #expect(ran.all == ["ran"])
        let answer: any Dispatchable = SwiftFlowAnswer()
        #expect(try await store.dispatch(answer).settled() as? Int == 42)
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func existentialDispatch_returnsWhatAnyDispatchReturns_andRejectsBadItems() async throws {
        let store = makeStore()
        let bad: any Dispatchable = WrongStateAction()
        let promise: Promise<any Sendable> = store.dispatch(bad)
        await #expect(throws: KatanaError.self) { try await promise.settled() }
        #expect(store.state == LegacyState())
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func concreteItems_stillGetTheTypedOverloadsAndPromises() async throws {
        let store = makeStore()
        let updater: Promise<Void> = store.dispatch(AppendUpdater(tag: "typed"))
        try await updater.settled()
        let answer: Promise<Int> = store.dispatch(SwiftFlowAnswer())
        #expect(try await answer.settled() == 42)
        // Without a type annotation, too.
        let inferred = store.dispatch(AddAction(amount: 1))
        #expect(type(of: inferred) == Promise<Void>.self)
        let inferredAnswer = store.dispatch(SwiftFlowAnswer())
        #expect(type(of: inferredAnswer) == Promise<Int>.self)
        // Through a `PartialStore` reference too.
        let partial: PartialStore<LegacyState> = store
        #expect(type(of: partial.dispatch(AddAction(amount: 0))) == Promise<Void>.self)
        // A 2.x action typed as the existential `Action` is still an updater.
        let action: any Action = AddAction(amount: 1)
        try await store.dispatch(action).settled()
        #expect(store.state.counter == 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func dispatchThroughAnAnyStore_dispatchesAnyItem() async throws {
        let store = makeStore()
        let anyStore: any AnyStore = store
        try await anyStore.dispatch(AddAction(amount: 2)).settled()
        let answer = try await anyStore.dispatch(SwiftFlowAnswer()).settled()
        #expect(answer as? Int == 42)
        #expect(store.state.counter == 2)
    }
}
