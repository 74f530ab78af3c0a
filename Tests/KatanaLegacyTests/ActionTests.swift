import Dispatch
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

@Suite struct ActionTests {
    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_updatesTheStateAndResolvesItsPromise() async throws {
        let store = makeStore()
        try await store.dispatch(AddAction(amount: 3)).settled()
        #expect(store.state.counter == 3)
        let erased: Action = AddAction(amount: 4)
        try await store.dispatch(erased).settled()
        #expect(store.state.counter == 7)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func actions_andModernUpdaters_runInDispatchOrder() async throws {
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
        try await settle(store)
        #expect(store.state.log == expected)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func actions_dispatchedFromManyThreads_areEachAppliedOnce() async throws {
        let store = makeStore()
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            store.dispatch(AddAction(amount: 1))
        }
        try await settle(store)
        #expect(store.state.counter == 200)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_callsTypedAndZeroArgumentListeners() async throws {
        let store = makeStore()
        let changes = LockedList<[Int]>()
        let pings = LockedList<Int>()
        store.addListener { old, new in changes.append([old.counter, new.counter]) }
        let unsubscribe = store.addListener { pings.append(1) }
        try await store.dispatch(AddAction(amount: 2)).settled()
        try await store.dispatch(AddAction(amount: 5)).settled()
        try await changes.waitUntil { $0 == [[0, 2], [2, 7]] }
        try await pings.waitForCount(2)
        #expect(pings.count == 2)
        unsubscribe()
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await changes.waitForCount(3)
        #expect(changes.count == 3)
        #expect(pings.all.count == 2)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_returningAStateOfTheWrongType_isRejectedWithKatanaError() async throws {
        let store = makeStore(initial: LegacyState(counter: 9))
        do {
            try await store.dispatch(WrongStateAction()).settled()
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
        try await store.dispatch(AddAction(amount: 1)).settled()
        #expect(store.state.counter == 10)
    }

    @available(*, deprecated, message: "Exercises the deprecated Action")
    @Test func action_dispatchedThroughAnyStore_isHandled() async throws {
        let store = makeStore()
        let erased: any AnyStore = store
        let pings = LockedList<Int>()
        erased.addListener { pings.append(1) }
        try await erased.anyDispatch(AddAction(amount: 6)).settled()
        #expect(store.state.counter == 6)
        try await pings.waitForCount(1)
        #expect(pings.count == 1)
    }
}
