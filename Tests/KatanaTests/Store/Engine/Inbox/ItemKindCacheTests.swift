import Testing
@testable import Katana

/// An updater written as a class, whose subclass is also a side effect: the two must be told apart
/// by their dynamic types even when both reach the store typed as the base class.
class CountingUpdater: StateUpdater, @unchecked Sendable {
    // @unchecked: no stored properties.
    func updateState(_ state: inout CounterState) {
        state.counter += 1
    }
}

/// A subclass that adds a side effect: both an updater and a side effect, so ambiguous.
final class CountingUpdaterWithSideEffect: CountingUpdater, SideEffect, @unchecked Sendable {
    // @unchecked: no stored properties.
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {}
}

/// How the store recognises an item's kind from the last type it saw (ItemKindCache): value types
/// from their existential, classes by their dynamic type.
@Suite struct ItemKindCacheTests {
    @Test func valueTypesAlternating_eachIsHandledAsWhatItIs() throws {
        let store = makeStore()
        for round in 1 ... 3 {
            try store.dispatch(Increment(amount: round)).wait(timeout: .seconds(10))
            let read = try store.dispatch(ReadCounter()).wait(timeout: .seconds(10))
            try store.dispatch(Increment(amount: 10)).wait(timeout: .seconds(10))
            #expect(read == store.state.counter - 10)
        }
        #expect(store.state.applied == [1, 10, 2, 10, 3, 10])
    }

    @Test func subclassAfterItsBaseClass_bothTypedAsTheBase_isClassifiedByItsDynamicType() throws {
        let store = makeStore()
        let base: CountingUpdater = CountingUpdater()
        let sub: CountingUpdater = CountingUpdaterWithSideEffect()
        try store.dispatch(base).wait(timeout: .seconds(10))
        let error = rejection(of: store.anyDispatch(sub))
        #expect(error?.katana == .ambiguousDispatchable(item: "KatanaTests.CountingUpdaterWithSideEffect"))
        try store.dispatch(base).wait(timeout: .seconds(10))
        #expect(store.state.counter == 2)
    }

    @Test func valueTypeAfterAClass_andAClassAfterAValueType_areEachRecognised() throws {
        let store = makeStore()
        try store.dispatch(Increment(amount: 5)).wait(timeout: .seconds(10))
        try store.dispatch(CountingUpdater()).wait(timeout: .seconds(10))
        try store.dispatch(Increment(amount: 7)).wait(timeout: .seconds(10))
        let error = rejection(of: store.anyDispatch(CountingUpdaterWithSideEffect()))
        #expect(error?.katana == .ambiguousDispatchable(item: "KatanaTests.CountingUpdaterWithSideEffect"))
        #expect(store.state.counter == 13)
    }
}
