import Dispatch
import Foundation
import Katana
import KatanaLegacy
import Testing

// The deprecated Swift Flow API is what these tests exercise. Swift Testing refuses deprecated tests,
// so each test calls its scenario through a protocol requirement (which does not warn); the scenarios
// live in a deprecated extension of that protocol, where using the deprecated API does not warn either.
@Suite struct SwiftFlowDispatchTests {
    private let scenarios: any SwiftFlowDispatchScenarios = SwiftFlowScenarioRunner()

    @Test func appState_isTheCurrentStateTypeErased() throws {
        try scenarios.appState_isTheCurrentStateTypeErased()
    }

    @Test func dispatchWithCallback_receivesTheStateThatIncludesItsAction() throws {
        try scenarios.dispatchWithCallback_receivesTheStateThatIncludesItsAction()
    }

    @Test func dispatchWithCallback_ofASideEffect_callsBackOnceItHasRun() throws {
        try scenarios.dispatchWithCallback_ofASideEffect_callsBackOnceItHasRun()
    }

    @Test func dispatchWithCallback_whenTheItemFails_neverCallsBack() throws {
        try scenarios.dispatchWithCallback_whenTheItemFails_neverCallsBack()
    }

    @Test func labelledDispatchOfAnAction_dispatchesIt() throws {
        try scenarios.labelledDispatchOfAnAction_dispatchesIt()
    }

    @Test func actionCreator_getsTheStateAndTheStore_andItsActionIsDispatched() throws {
        try scenarios.actionCreator_getsTheStateAndTheStore_andItsActionIsDispatched()
    }

    @Test func actionCreator_returningNil_dispatchesNothing_andNeverCallsItsCallback() throws {
        try scenarios.actionCreator_returningNil_dispatchesNothing_andNeverCallsItsCallback()
    }

    @Test func asyncActionCreator_dispatchesWhenItsWorkIsDone_andItsCallbackFires() throws {
        try scenarios.asyncActionCreator_dispatchesWhenItsWorkIsDone_andItsCallbackFires()
    }

    @Test func asyncActionCreator_withoutCallback_andLabelled() throws {
        try scenarios.asyncActionCreator_withoutCallback_andLabelled()
    }

    @Test func dispatchFunction_dispatchesAndReturnsThePromise() throws {
        try scenarios.dispatchFunction_dispatchesAndReturnsThePromise()
    }

    @Test func dispatchFunction_doesNotKeepTheStore_andRejectsOnceItIsGone() throws {
        try scenarios.dispatchFunction_doesNotKeepTheStore_andRejectsOnceItIsGone()
    }
}

/// The scenarios of ``SwiftFlowDispatchTests``, one per test.
protocol SwiftFlowDispatchScenarios: Sendable {
    func appState_isTheCurrentStateTypeErased() throws
    func dispatchWithCallback_receivesTheStateThatIncludesItsAction() throws
    func dispatchWithCallback_ofASideEffect_callsBackOnceItHasRun() throws
    func dispatchWithCallback_whenTheItemFails_neverCallsBack() throws
    func labelledDispatchOfAnAction_dispatchesIt() throws
    func actionCreator_getsTheStateAndTheStore_andItsActionIsDispatched() throws
    func actionCreator_returningNil_dispatchesNothing_andNeverCallsItsCallback() throws
    func asyncActionCreator_dispatchesWhenItsWorkIsDone_andItsCallbackFires() throws
    func asyncActionCreator_withoutCallback_andLabelled() throws
    func dispatchFunction_dispatchesAndReturnsThePromise() throws
    func dispatchFunction_doesNotKeepTheStore_andRejectsOnceItIsGone() throws
}

@available(*, deprecated)
extension SwiftFlowDispatchScenarios {
    func appState_isTheCurrentStateTypeErased() throws {
        let store = makeStore(initial: LegacyState(counter: 3))
        #expect((store.appState as? LegacyState)?.counter == 3)
        let anyStore: any AnyStore = store
        #expect((anyStore.appState as? LegacyState)?.counter == 3)
    }

    func dispatchWithCallback_receivesTheStateThatIncludesItsAction() throws {
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

    func dispatchWithCallback_ofASideEffect_callsBackOnceItHasRun() throws {
        let store = makeStore()
        let ran = Recorder<String>()
        let seen = Recorder<String>()
        store.dispatch(SwiftFlowProbeSideEffect(ran: ran)) { _ in
            seen.append(ran.values.joined())
        }
        #expect(eventually { seen.values == ["ran"] })
    }

    func dispatchWithCallback_whenTheItemFails_neverCallsBack() throws {
        let store = makeStore()
        let seen = Recorder<Int>()
        let promise = store.dispatch(WrongStateAction()) { _ in seen.append(1) }
        #expect(throws: KatanaError.self) { try promise.wait(timeout: .seconds(10)) }
        let marker = Recorder<Int>()
        store.dispatch(AddAction(amount: 1)) { _ in marker.append(1) }
        #expect(eventually { marker.values == [1] })
        #expect(seen.values.isEmpty)
    }

    func labelledDispatchOfAnAction_dispatchesIt() throws {
        let store = makeStore()
        let result = try store.dispatch(action: AddAction(amount: 2)).wait(timeout: .seconds(10))
        #expect(result is Void)
        #expect(store.state.counter == 2)
    }

    func actionCreator_getsTheStateAndTheStore_andItsActionIsDispatched() throws {
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

    func actionCreator_returningNil_dispatchesNothing_andNeverCallsItsCallback() throws {
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

    func asyncActionCreator_dispatchesWhenItsWorkIsDone_andItsCallbackFires() throws {
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

    func asyncActionCreator_withoutCallback_andLabelled() throws {
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

    func dispatchFunction_dispatchesAndReturnsThePromise() throws {
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

    func dispatchFunction_doesNotKeepTheStore_andRejectsOnceItIsGone() throws {
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
