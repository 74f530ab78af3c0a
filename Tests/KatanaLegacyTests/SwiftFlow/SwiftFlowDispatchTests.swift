import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
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
    @Test func dispatchWithCallback_receivesTheStateThatIncludesItsAction() async throws {
        let store = makeStore()
        let seen = LockedList<Int>()
        let promise = store.dispatch(AddAction(amount: 4)) { state in
            seen.append((state as? LegacyState)?.counter ?? -1)
        }
        try await promise.settled()
        try await seen.waitUntil { $0 == [4] }
        // The labelled form, and a modern updater.
        store.dispatch(action: AppendUpdater(tag: "modern"), callback: { state in
            seen.append((state as? LegacyState)?.log.count ?? -1)
        })
        try await seen.waitUntil { $0 == [4, 1] }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchWithCallback_ofASideEffect_callsBackOnceItHasRun() async throws {
        let store = makeStore()
        let ran = LockedList<String>()
        let seen = LockedList<String>()
        store.dispatch(SwiftFlowProbeSideEffect(ran: ran)) { _ in
            seen.append(ran.all.joined())
        }
        try await seen.waitUntil { $0 == ["ran"] }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchWithCallback_whenTheItemFails_neverCallsBack() async throws {
        let store = makeStore()
        let seen = LockedList<Int>()
        let promise = store.dispatch(WrongStateAction()) { _ in seen.append(1) }
        await #expect(throws: KatanaError.self) { try await promise.settled() }
        let marker = LockedList<Int>()
        store.dispatch(AddAction(amount: 1)) { _ in marker.append(1) }
        try await marker.waitUntil { $0 == [1] }
        #expect(seen.all.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func labelledDispatchOfAnAction_dispatchesIt() async throws {
        let store = makeStore()
        let result = try await store.dispatch(action: AddAction(amount: 2)).settled()
        #expect(result is Void)
        #expect(store.state.counter == 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func actionCreator_getsTheStateAndTheStore_andItsActionIsDispatched() async throws {
        let store = makeStore(initial: LegacyState(counter: 10))
        let sawStore = LockedList<Bool>()
        let creator: ActionCreator = { state, creatorStore in
            sawStore.append(creatorStore === store)
            guard let state = state as? LegacyState, state.counter >= 10 else { return nil }
            return AppendAction(tag: "counter was \(state.counter)")
        }
        let promise = store.dispatch(creator)
        try await #require(promise).settled()
        #expect(store.state.log == ["counter was 10"])
        #expect(sawStore.all == [true])
        // The labelled forms.
        try await store.dispatch(actionCreator: creator)?.settled()
        let seen = LockedList<[String]>()
        store.dispatch(actionCreator: creator, callback: { state in
            seen.append((state as? LegacyState)?.log ?? [])
        })
        try await seen.waitForCount(1)
        #expect(seen.count == 1)
        #expect(seen.all.first?.count == 3)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func actionCreator_returningNil_dispatchesNothing_andNeverCallsItsCallback() async throws {
        let store = makeStore()
        let listened = LockedList<Int>()
        store.addListener { _, _ in listened.append(1) }
        let called = LockedList<Int>()
        let promise = store.dispatch({ _, _ in nil }, callback: { _ in called.append(1) })
        #expect(promise == nil)
        #expect(store.dispatch { _, _ in nil } == nil)
        // Something dispatched afterwards is the first thing the store handles, and its callback comes.
        let marker = LockedList<Int>()
        store.dispatch(AddAction(amount: 1)) { _ in marker.append(1) }
        try await marker.waitUntil { $0 == [1] }
        #expect(listened.all == [1])
        #expect(called.all.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func asyncActionCreator_dispatchesWhenItsWorkIsDone_andItsCallbackFires() async throws {
        let store = makeStore(initial: LegacyState(counter: 1))
        // The creator's work is done when the test says so (and, whatever happens, when it ends):
        // it must not go on by itself while the test has not looked yet, however slow the machine.
        let work = DispatchSemaphore(value: 0)
        defer { work.signal() }
        let sawState = LockedList<Int>()
        let creator: AsyncActionCreator = { state, _, actionCreatorCallback in
            sawState.append((state as? LegacyState)?.counter ?? -1)
            DispatchQueue.global().async {
                _ = work.wait(timeout: .now() + 600)
                actionCreatorCallback { state, _ in
                    AddAction(amount: ((state as? LegacyState)?.counter ?? 0) * 10)
                }
            }
        }
        let seen = LockedList<Int>()
        store.dispatch(creator) { state in
            seen.append((state as? LegacyState)?.counter ?? -1)
        }
        #expect(sawState.all == [1])
        try await settle(store)
        #expect(store.state.counter == 1)
        work.signal()
        try await seen.waitUntil { $0 == [11] }
        #expect(store.state.counter == 11)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func asyncActionCreator_withoutCallback_andLabelled() async throws {
        let store = makeStore()
        let later: AsyncActionCreator = { _, _, actionCreatorCallback in
            DispatchQueue.global().async {
                actionCreatorCallback { _, _ in AddAction(amount: 1) }
            }
        }
        store.dispatch(later)
        store.dispatch(asyncActionCreator: later)
        try await store.waitUntil { store.state.counter == 2 }
        let seen = LockedList<Int>()
        store.dispatch(asyncActionCreator: later, callback: { state in
            seen.append((state as? LegacyState)?.counter ?? -1)
        })
        try await seen.waitForCount(1)
        #expect(seen.count == 1)
        #expect(seen.all.first ?? 0 >= 3)
        // An async creator whose creator returns nil dispatches nothing and never calls back.
        let never = LockedList<Int>()
        store.dispatch({ _, _, actionCreatorCallback in actionCreatorCallback { _, _ in nil } }, callback: { _ in
            never.append(1)
        })
        try await settle(store)
        #expect(store.state.counter == 3)
        #expect(never.all.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchFunction_dispatchesAndReturnsThePromise() async throws {
        let store = makeStore()
        let dispatch = store.dispatchFunction!
        let result = dispatch(AddAction(amount: 5))
        let promise = try #require(result as? Promise<any Sendable>)
        try await promise.settled()
        #expect(store.state.counter == 5)
        _ = store.dispatchFunction(AppendAction(tag: "direct"))
        try await settle(store)
        #expect(store.state.log == ["direct"])
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func dispatchFunction_doesNotKeepTheStore_andRejectsOnceItIsGone() async throws {
        weak var weakStore: LegacyStore?
        var dispatch: DispatchFunction?
        do {
            let store = makeStore()
            weakStore = store
            dispatch = store.dispatchFunction
        }
        // Nothing signals a release: the weak reference is looked at until it clears.
        try await poll("the store to be released") { weakStore == nil }
        let result = try #require(dispatch?(AddAction(amount: 1)) as? Promise<any Sendable>)
        await #expect(throws: KatanaError.self) { try await result.settled() }
    }
}
