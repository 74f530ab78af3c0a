import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

@Suite struct SwiftFlowClientTests {
    @Test func aSubscriber_rendersTheStateWhenItAppears_andEveryChangeUntilItDisappears() async throws {
        let store = makeCounterStore()
        store.dispatch(SetCounter(value: 3))
        try await store.waitUntil { store.state.counter == 3 }
        #expect((store.appState as! FlowCounterState).counter == 3)

        let viewController = CounterViewController(store: store)
        viewController.viewWillAppear()
        #expect(viewController.renderedCounters == [3])

        store.dispatch(IncreaseCounter())
        store.dispatch(action: IncreaseCounter())
        try await viewController.rendered.waitUntil { $0 == [3, 4, 5] }

        viewController.viewWillDisappear()
        viewController.viewWillDisappear()
        store.dispatch(IncreaseCounter())
        try await store.waitUntil { store.state.counter == 6 }
        #expect((store.appState as! FlowCounterState).counter == 6)
        let probe = LockedList<String>()
        store.dispatch(IncreaseCounter()) { state in
            probe.append("after")
        }
        try await probe.waitUntil { $0 == ["after"] }
        #expect(viewController.renderedCounters == [3, 4, 5])
    }

    @Test func theLabelledSubscribeForms_work() async throws {
        let store = makeCounterStore()
        let viewController = CounterViewController(store: store)
        store.subscribe(subscriber: viewController)
        store.dispatch(IncreaseCounter())
        try await viewController.rendered.waitUntil { $0 == [0, 1] }
        store.unsubscribe(subscriber: viewController)
    }

    @Test func dispatchCallbacks_getTheNewState() async throws {
        let store = makeCounterStore()
        let log = LockedList<String>()
        store.dispatch(SetMessage(message: "hello")) { state in
            let state = state as! FlowCounterState
            log.append("message: \(state.message)")
        }
        store.dispatch(action: IncreaseCounter(), callback: { state in
            if let state = state as? FlowCounterState {
                log.append("counter: \(state.counter)")
            }
        })
        try await log.waitForCount(2)
        #expect(log.all.count == 2)
        #expect(log.all.contains("message: hello"))
        #expect(log.all.contains { $0.hasPrefix("counter: 1") })
    }

    @Test func actionCreators_dispatchWhatTheyDecide() async throws {
        let store = makeCounterStore()
        store.dispatch(SetCounter(value: 1))
        store.dispatch(increaseCounter(below: 3))
        try await store.waitUntil { store.state.counter == 2 }
        #expect((store.appState as! FlowCounterState).counter == 2)
        store.dispatch(actionCreator: increaseCounter(below: 3))
        try await store.waitUntil { store.state.counter == 3 }
        #expect((store.appState as! FlowCounterState).counter == 3)

        // At the limit the creator returns nil: nothing is dispatched, the callback never comes.
        let log = LockedList<String>()
        store.dispatch(increaseCounter(below: 3)) { state in
            log.append("should not happen")
        }
        store.dispatch(actionCreator: increaseCounter(below: 3), callback: { state in
            log.append("should not happen either")
        })
        store.dispatch(SetMessage(message: "done")) { state in
            log.append("done")
        }
        try await log.waitUntil { $0 == ["done"] }
        #expect((store.appState as! FlowCounterState).counter == 3)

        // A creator may dispatch through the store it is given, too.
        store.dispatch(resetCounter(message: "reset"))
        try await store.waitUntil { store.state.counter == 0 && store.state.message == "reset" }
        #expect({
            let state = store.appState as! FlowCounterState
            return state.counter == 0 && state.message == "reset"
        }())
    }

    @Test func asyncActionCreators_dispatchWhenTheServerAnswers() async throws {
        let store = makeCounterStore()
        let server = CounterServer(value: 42)
        let log = LockedList<String>()
        store.dispatch(fetchCounter(from: server)) { state in
            log.append("fetched \((state as! FlowCounterState).counter)")
        }
        #expect((store.appState as! FlowCounterState).counter == 0)
        server.answer.signal()
        try await log.waitUntil { $0 == ["fetched 42"] }

        let other = CounterServer(value: 7)
        store.dispatch(asyncActionCreator: fetchCounter(from: other))
        other.answer.signal()
        try await store.waitUntil { store.state.counter == 7 }
        #expect((store.appState as! FlowCounterState).counter == 7)

        let third = CounterServer(value: 9)
        store.dispatch(fetchCounter(from: third))
        third.answer.signal()
        try await store.waitUntil { store.state.counter == 9 }
        #expect((store.appState as! FlowCounterState).counter == 9)

        let fourth = CounterServer(value: 11)
        store.dispatch(asyncActionCreator: fetchCounter(from: fourth), callback: { state in
            log.append("fetched \((state as! FlowCounterState).counter)")
        })
        fourth.answer.signal()
        try await log.waitUntil { $0 == ["fetched 42", "fetched 11"] }
    }

    @Test func theDispatchFunction_dispatches() async throws {
        let store = makeCounterStore()
        let dispatch: DispatchFunction = store.dispatchFunction
        _ = dispatch(IncreaseCounter())
        _ = store.dispatchFunction(IncreaseCounter())
        _ = store.dispatchFunction!(IncreaseCounter())
        try await store.waitUntil { store.state.counter == 3 }
        #expect((store.appState as! FlowCounterState).counter == 3)
    }

    @Test func anItemTypedAsDispatchable_isDispatched_asIn3x() async throws {
        let store = makeCounterStore()
        let items: [Dispatchable] = [SetCounter(value: 5), IncreaseCounter()]
        for item in items {
            store.dispatch(item)
        }
        let last: Dispatchable = SetMessage(message: "typed as Dispatchable")
        // The 3.x code blocks on the promise, as it did: on a thread of its own.
        _ = try await onThreadOfItsOwn("the 3.x dispatch") { try store.dispatch(last).wait(timeout: .seconds(10)) }
        #expect((store.appState as! FlowCounterState).counter == 6)
        #expect((store.appState as! FlowCounterState).message == "typed as Dispatchable")
    }
}
