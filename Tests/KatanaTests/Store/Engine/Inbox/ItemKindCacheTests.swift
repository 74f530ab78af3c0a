import Testing
@testable import Katana
import KatanaTestSupport

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
    @Test func valueTypesAlternating_eachIsHandledAsWhatItIs() async throws {
        let store = makeStore()
        for round in 1 ... 3 {
            try await store.dispatch(Increment(amount: round)).settled()
            let read = try await store.dispatch(ReadCounter()).settled()
            try await store.dispatch(Increment(amount: 10)).settled()
            #expect(read == store.state.counter - 10)
        }
        #expect(store.state.applied == [1, 10, 2, 10, 3, 10])
    }

    @Test func subclassAfterItsBaseClass_bothTypedAsTheBase_isClassifiedByItsDynamicType() async throws {
        let store = makeStore()
        let base: CountingUpdater = CountingUpdater()
        let sub: CountingUpdater = CountingUpdaterWithSideEffect()
        try await store.dispatch(base).settled()
        let error = try await rejection(of: store.anyDispatch(sub))
        #expect(error?.katana == .ambiguousDispatchable(item: "KatanaTests.CountingUpdaterWithSideEffect"))
        try await store.dispatch(base).settled()
        #expect(store.state.counter == 2)
    }

    @Test func valueTypeAfterAClass_andAClassAfterAValueType_areEachRecognised() async throws {
        let store = makeStore()
        try await store.dispatch(Increment(amount: 5)).settled()
        try await store.dispatch(CountingUpdater()).settled()
        try await store.dispatch(Increment(amount: 7)).settled()
        let error = try await rejection(of: store.anyDispatch(CountingUpdaterWithSideEffect()))
        #expect(error?.katana == .ambiguousDispatchable(item: "KatanaTests.CountingUpdaterWithSideEffect"))
        #expect(store.state.counter == 13)
    }
}
