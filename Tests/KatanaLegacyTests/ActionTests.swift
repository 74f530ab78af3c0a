import Dispatch
import Katana
import KatanaLegacy
import Testing

@Suite struct ActionTests {
    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_updatesTheStateAndResolvesItsPromise() throws {
        let store = makeStore()
        try store.dispatch(AddAction(amount: 3)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 3)
        let erased: Action = AddAction(amount: 4)
        try store.dispatch(erased).wait(timeout: .seconds(10))
        #expect(store.state.counter == 7)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func actions_andModernUpdaters_runInDispatchOrder() throws {
        let store = makeStore()
        var expected: [String] = []
        for index in 0..<300 {
            let tag = "\(index)"
            expected.append(tag)
            if index.isMultiple(of: 2) {
                store.dispatch(AppendAction(tag: tag))
            } else {
                store.dispatch(AppendUpdater(tag: tag))
            }
        }
        try settle(store)
        #expect(store.state.log == expected)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func actions_dispatchedFromManyThreads_areEachAppliedOnce() throws {
        let store = makeStore()
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            store.dispatch(AddAction(amount: 1))
        }
        try settle(store)
        #expect(store.state.counter == 200)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_callsTypedAndZeroArgumentListeners() throws {
        let store = makeStore()
        let changes = Recorder<[Int]>()
        let pings = Recorder<Int>()
        store.addListener { old, new in changes.append([old.counter, new.counter]) }
        let unsubscribe = store.addListener { pings.append(1) }
        try store.dispatch(AddAction(amount: 2)).wait(timeout: .seconds(10))
        try store.dispatch(AddAction(amount: 5)).wait(timeout: .seconds(10))
        #expect(eventually { changes.values == [[0, 2], [2, 7]] && pings.values.count == 2 })
        unsubscribe()
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        #expect(eventually { changes.values.count == 3 })
        #expect(pings.values.count == 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_returningAStateOfTheWrongType_isRejectedWithKatanaError() throws {
        let store = makeStore(initial: LegacyState(counter: 9))
        do {
            try store.dispatch(WrongStateAction()).wait(timeout: .seconds(10))
            Issue.record("the dispatch should have been rejected")
        } catch let error as KatanaError {
            guard case .invalidStateReturned(let updater, _, let actual) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(updater.hasSuffix("WrongStateAction"))
            #expect(actual.hasSuffix("ForeignState"))
        }
        // The state is untouched and the store keeps working.
        #expect(store.state.counter == 9)
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 10)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_dispatchedThroughAnyStore_isHandled() throws {
        let store = makeStore()
        let erased: any AnyStore = store
        let pings = Recorder<Int>()
        erased.addListener { pings.append(1) }
        try erased.anyDispatch(AddAction(amount: 6)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 6)
        #expect(eventually { pings.values.count == 1 })
    }
}
