import Testing
@testable import Katana
import KatanaTestSupport

@Suite struct DispatchableLoggerTests {
    @Test func logger_writesOneLinePerDispatchedItemToSink_inOrder() async throws {
        let lines = LockedList<String>()
        let store = makeStore(interceptors: [DispatchableLogger.interceptor(sink: { lines.append($0) })])
        try await store.dispatch(Increment(amount: 1)).settled()
        _ = try await store.dispatch(ReadCounter()).settled()
        #expect(lines.all == [
            "[Katana] dispatched KatanaTests.Increment",
            "[Katana] dispatched KatanaTests.ReadCounter",
        ])
        #expect(store.state.counter == 1)
    }

    @Test func logger_skipsBlacklistedTypes_butStillPassesThemOn() async throws {
        let lines = LockedList<String>()
        let store = makeStore(interceptors: [
            DispatchableLogger.interceptor(blackList: [Increment.self, NoChange.self], sink: { lines.append($0) }),
        ])
        try await store.dispatch(Increment(amount: 2)).settled()
        try await store.dispatch(NoChange()).settled()
        try await store.dispatch(IncrementLater(amount: 3)).settled()
        // IncrementLater is logged; the Increment it dispatches is blacklisted too.
        #expect(lines.all == ["[Katana] dispatched KatanaTests.IncrementLater"])
        #expect(store.state.applied == [2, 3])
    }

    @Test func logger_linesUseTheItemsDebugDescription() async throws {
        struct Described: StateUpdater {
            var debugDescription: String { "custom description" }
            func updateState(_ state: inout CounterState) {}
        }
        let lines = LockedList<String>()
        let store = makeStore(interceptors: [DispatchableLogger.interceptor(sink: { lines.append($0) })])
        try await store.dispatch(Described()).settled()
        #expect(lines.all == ["[Katana] dispatched custom description"])
    }
}
