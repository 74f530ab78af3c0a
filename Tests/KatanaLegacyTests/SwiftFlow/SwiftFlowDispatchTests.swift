import Dispatch
import Foundation
import Katana
import KatanaLegacy
import Testing

// The deprecated Swift Flow API is what these tests exercise.
@Suite struct SwiftFlowDispatchTests {
    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func appState_isTheCurrentStateTypeErased() throws {
        let store = makeStore(initial: LegacyState(counter: 3))
        #expect((store.appState as? LegacyState)?.counter == 3)
        let anyStore: any AnyStore = store
        #expect((anyStore.appState as? LegacyState)?.counter == 3)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchWithCallback_receivesTheStateThatIncludesItsAction() throws {
        let store = makeStore()
        let seen = Recorder<Int>()
        let promise = store.dispatch(AddAction(amount: 4)) { state in
            seen.append((state as? LegacyState)?.counter ?? -1)
        }
        try promise.wait(timeout: .seconds(10))
        #expect(eventually { seen.values == [4] })
        // The labelled form, and a modern updater.
        store.dispatch(action: AppendUpdater(tag: "modern"), callback: { state in
            seen.append((state as? LegacyState)?.log.count ?? -1)
        })
        #expect(eventually { seen.values == [4, 1] })
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchWithCallback_ofASideEffect_callsBackOnceItHasRun() throws {
        let store = makeStore()
        let ran = Recorder<String>()
        let seen = Recorder<String>()
        store.dispatch(SwiftFlowProbeSideEffect(ran: ran)) { _ in
            seen.append(ran.values.joined())
        }
        #expect(eventually { seen.values == ["ran"] })
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchWithCallback_whenTheItemFails_neverCallsBack() throws {
        let store = makeStore()
        let seen = Recorder<Int>()
        let promise = store.dispatch(WrongStateAction()) { _ in seen.append(1) }
        #expect(throws: KatanaError.self) { try promise.wait(timeout: .seconds(10)) }
        let marker = Recorder<Int>()
        store.dispatch(AddAction(amount: 1)) { _ in marker.append(1) }
        #expect(eventually { marker.values == [1] })
        #expect(seen.values.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func labelledDispatchOfAnAction_dispatchesIt() throws {
        let store = makeStore()
        let result = try store.dispatch(action: AddAction(amount: 2)).wait(timeout: .seconds(10))
        #expect(result is Void)
        #expect(store.state.counter == 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func actionCreator_getsTheStateAndTheStore_andItsActionIsDispatched() throws {
        let store = makeStore(initial: LegacyState(counter: 10))
        let sawStore = Recorder<Bool>()
        let creator: ActionCreator = { state, creatorStore in
            sawStore.append(creatorStore === store)
            guard let state = state as? LegacyState, state.counter >= 10 else { return nil }
            return AppendAction(tag: "counter was \(state.counter)")
        }
        let promise = store.dispatch(creator)
        try #require(promise).wait(timeout: .seconds(10))
        #expect(store.state.log == ["counter was 10"])
        #expect(sawStore.values == [true])
        // The labelled forms.
        try store.dispatch(actionCreator: creator)?.wait(timeout: .seconds(10))
        let seen = Recorder<[String]>()
        store.dispatch(actionCreator: creator, callback: { state in
            seen.append((state as? LegacyState)?.log ?? [])
        })
        #expect(eventually { seen.values.count == 1 })
        #expect(seen.values.first?.count == 3)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func actionCreator_returningNil_dispatchesNothing_andNeverCallsItsCallback() throws {
        let store = makeStore()
        let listened = Recorder<Int>()
        store.addListener { _, _ in listened.append(1) }
        let called = Recorder<Int>()
        let promise = store.dispatch({ _, _ in nil }, callback: { _ in called.append(1) })
        #expect(promise == nil)
        #expect(store.dispatch { _, _ in nil } == nil)
        // Something dispatched afterwards is the first thing the store handles, and its callback comes.
        let marker = Recorder<Int>()
        store.dispatch(AddAction(amount: 1)) { _ in marker.append(1) }
        #expect(eventually { marker.values == [1] })
        #expect(listened.values == [1])
        #expect(called.values.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func asyncActionCreator_dispatchesWhenItsWorkIsDone_andItsCallbackFires() throws {
        let store = makeStore(initial: LegacyState(counter: 1))
        let work = DispatchSemaphore(value: 0)
        let sawState = Recorder<Int>()
        let creator: AsyncActionCreator = { state, _, actionCreatorCallback in
            sawState.append((state as? LegacyState)?.counter ?? -1)
            DispatchQueue.global().async {
                _ = work.wait(timeout: .now() + 10)
                actionCreatorCallback { state, _ in
                    AddAction(amount: ((state as? LegacyState)?.counter ?? 0) * 10)
                }
            }
        }
        let seen = Recorder<Int>()
        store.dispatch(creator) { state in
            seen.append((state as? LegacyState)?.counter ?? -1)
        }
        #expect(sawState.values == [1])
        try settle(store)
        #expect(store.state.counter == 1)
        work.signal()
        #expect(eventually { seen.values == [11] })
        #expect(store.state.counter == 11)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func asyncActionCreator_withoutCallback_andLabelled() throws {
        let store = makeStore()
        let later: AsyncActionCreator = { _, _, actionCreatorCallback in
            DispatchQueue.global().async {
                actionCreatorCallback { _, _ in AddAction(amount: 1) }
            }
        }
        store.dispatch(later)
        store.dispatch(asyncActionCreator: later)
        #expect(eventually { store.state.counter == 2 })
        let seen = Recorder<Int>()
        store.dispatch(asyncActionCreator: later, callback: { state in
            seen.append((state as? LegacyState)?.counter ?? -1)
        })
        #expect(eventually { seen.values.count == 1 })
        #expect(seen.values.first ?? 0 >= 3)
        // An async creator whose creator returns nil dispatches nothing and never calls back.
        let never = Recorder<Int>()
        store.dispatch({ _, _, actionCreatorCallback in actionCreatorCallback { _, _ in nil } }, callback: { _ in
            never.append(1)
        })
        try settle(store)
        #expect(store.state.counter == 3)
        #expect(never.values.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchFunction_dispatchesAndReturnsThePromise() throws {
        let store = makeStore()
        let dispatch = store.dispatchFunction!
        let result = dispatch(AddAction(amount: 5))
        let promise = try #require(result as? Promise<any Sendable>)
        try promise.wait(timeout: .seconds(10))
        #expect(store.state.counter == 5)
        _ = store.dispatchFunction(AppendAction(tag: "direct"))
        try settle(store)
        #expect(store.state.log == ["direct"])
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchFunction_doesNotKeepTheStore_andRejectsOnceItIsGone() throws {
        weak var weakStore: LegacyStore?
        var dispatch: DispatchFunction?
        do {
            let store = makeStore()
            weakStore = store
            dispatch = store.dispatchFunction
        }
        #expect(eventually { weakStore == nil })
        let result = try #require(dispatch?(AddAction(amount: 1)) as? Promise<any Sendable>)
        #expect(throws: KatanaError.self) { try result.wait(timeout: .seconds(10)) }
    }
}
