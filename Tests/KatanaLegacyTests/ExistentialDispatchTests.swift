import Katana
import KatanaLegacy
import Testing

// `store.dispatch(item)` with `item: any Dispatchable`, as Katana 3.x allowed (deprecated: anyDispatch).
@Suite struct ExistentialDispatchTests {
    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func existentialDispatch_ofAStateUpdater_updatesTheState_andSettlesWithVoid() throws {
        let store = makeStore()
        let items: [any Dispatchable] = [AppendAction(tag: "legacy"), AppendUpdater(tag: "modern")]
        for item in items {
            let value = try store.dispatch(item).wait(timeout: .seconds(10))
            #expect(value is Void)
        }
        #expect(store.state.log == ["legacy", "modern"])
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func existentialDispatch_ofSideEffects_runsThem_andCarriesTheirValue() throws {
        let store = makeStore()
        let ran = Recorder<String>()
        let effect: any Dispatchable = SwiftFlowProbeSideEffect(ran: ran)
        try store.dispatch(effect).wait(timeout: .seconds(10))
        #expect(ran.values == ["ran"])
        let answer: any Dispatchable = SwiftFlowAnswer()
        #expect(try store.dispatch(answer).wait(timeout: .seconds(10)) as? Int == 42)
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func existentialDispatch_returnsWhatAnyDispatchReturns_andRejectsBadItems() throws {
        let store = makeStore()
        let bad: any Dispatchable = WrongStateAction()
        let promise: Promise<any Sendable> = store.dispatch(bad)
        #expect(throws: KatanaError.self) { try promise.wait(timeout: .seconds(10)) }
        #expect(store.state == LegacyState())
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func concreteItems_stillGetTheTypedOverloadsAndPromises() throws {
        let store = makeStore()
        let updater: Promise<Void> = store.dispatch(AppendUpdater(tag: "typed"))
        try updater.wait(timeout: .seconds(10))
        let answer: Promise<Int> = store.dispatch(SwiftFlowAnswer())
        #expect(try answer.wait(timeout: .seconds(10)) == 42)
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
        try store.dispatch(action).wait(timeout: .seconds(10))
        #expect(store.state.counter == 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated existential dispatch")
    @Test func dispatchThroughAnAnyStore_dispatchesAnyItem() throws {
        let store = makeStore()
        let anyStore: any AnyStore = store
        try anyStore.dispatch(AddAction(amount: 2)).wait(timeout: .seconds(10))
        let answer = try anyStore.dispatch(SwiftFlowAnswer()).wait(timeout: .seconds(10))
        #expect(answer as? Int == 42)
        #expect(store.state.counter == 2)
    }
}
