import Dispatch
import Testing
@testable import Katana

/// Katana 3.x's deprecated `thenDispatch`, kept so 3.x code compiles; it dispatches to the store
/// the promise's own dispatch went to.
@Suite struct HydraThenDispatchTests {
    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_updater_dispatchesToTheSameStoreAfterTheFirst() throws {
        let store = makeStore()
        try store.dispatch(Increment(amount: 1)).thenDispatch(Increment(amount: 2)).wait(timeout: defaultTestTimeout)
        #expect(store.state.applied == [1, 2])
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_returningSideEffect_fulfilsWithItsValue() throws {
        let store = makeStore()
        let value = try store.dispatch(Increment(amount: 3)).thenDispatch(ReadCounter()).wait(timeout: defaultTestTimeout)
        #expect(value == 3)
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_body_makesTheItemFromTheValue() throws {
        let store = makeStore()
        try store.dispatch(Constant(value: 4)).thenDispatch { value in Increment(amount: value) }.wait(timeout: defaultTestTimeout)
        #expect(store.state.applied == [4])
        let doubled = try store.dispatch(Constant(value: 5)).thenDispatch { value in Constant(value: value * 2) }
            .wait(timeout: defaultTestTimeout)
        #expect(doubled == 10)
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_failingSource_doesNotDispatch() {
        let store = makeStore()
        let next = store.dispatch(Fails(code: 6)).thenDispatch(Increment(amount: 1))
        #expect(rejection(of: next, timeout: defaultTestTimeout) as? TestError == TestError(code: 6))
        #expect(store.state.applied == [])
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func thenDispatch_onAPromiseWithoutStore_rejectsNamingTheItem() {
        let next = Promise(resolved: 1).thenDispatch(Increment(amount: 1))
        let error = rejection(of: next, timeout: defaultTestTimeout)
        guard case .thenDispatchWithoutStore(let item)? = error?.katana else {
            Issue.record("expected thenDispatchWithoutStore, got \(String(describing: error))")
            return
        }
        #expect(item.contains("Increment"))
    }
}
