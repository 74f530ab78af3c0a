import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Katana 3.x's deprecated `thenDispatch`, kept so 3.x code compiles; it dispatches to the store
/// the promise's own dispatch went to.
@Suite struct HydraThenDispatchTests {
    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_updater_dispatchesToTheSameStoreAfterTheFirst() async throws {
        let store = makeStore()
        try await store.dispatch(Increment(amount: 1)).thenDispatch(Increment(amount: 2)).settled()
        #expect(store.state.applied == [1, 2])
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_returningSideEffect_fulfilsWithItsValue() async throws {
        let store = makeStore()
        let value = try await store.dispatch(Increment(amount: 3)).thenDispatch(ReadCounter()).settled()
        #expect(value == 3)
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_body_makesTheItemFromTheValue() async throws {
        let store = makeStore()
        try await store.dispatch(Constant(value: 4)).thenDispatch { value in Increment(amount: value) }.settled()
        #expect(store.state.applied == [4])
        let doubled = try await store.dispatch(Constant(value: 5)).thenDispatch { value in Constant(value: value * 2) }
            .settled()
        #expect(doubled == 10)
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_failingSource_doesNotDispatch() async throws {
        let store = makeStore()
        let next = store.dispatch(Fails(code: 6)).thenDispatch(Increment(amount: 1))
        #expect(try await rejection(of: next) as? TestError == TestError(code: 6))
        #expect(store.state.applied == [])
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_onAPromiseWithoutStore_rejectsNamingTheItem() async throws {
        let next = Promise(resolved: 1).thenDispatch(Increment(amount: 1))
        let error = try await rejection(of: next)
        guard case .thenDispatchWithoutStore(let item)? = error?.katana else {
            Issue.record("expected thenDispatchWithoutStore, got \(String(describing: error))")
            return
        }
        #expect(item.contains("Increment"))
    }
}
