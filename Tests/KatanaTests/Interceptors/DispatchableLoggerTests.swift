import Testing
@testable import Katana

@Suite struct DispatchableLoggerTests {
    @Test func logger_writesOneLinePerDispatchedItemToSink_inOrder() throws {
        let lines = Recorder<String>()
        let store = makeStore(interceptors: [DispatchableLogger.interceptor(sink: { lines.append($0) })])
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        _ = try store.dispatch(ReadCounter()).wait(timeout: .seconds(10))
        #expect(lines.values == [
            "[Katana] dispatched KatanaTests.Increment",
            "[Katana] dispatched KatanaTests.ReadCounter",
        ])
        #expect(store.state.counter == 1)
    }

    @Test func logger_skipsBlacklistedTypes_butStillPassesThemOn() throws {
        let lines = Recorder<String>()
        let store = makeStore(interceptors: [
            DispatchableLogger.interceptor(blackList: [Increment.self, NoChange.self], sink: { lines.append($0) }),
        ])
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        try store.dispatch(NoChange()).wait(timeout: .seconds(10))
        try store.dispatch(IncrementLater(amount: 3)).wait(timeout: .seconds(10))
        // IncrementLater is logged; the Increment it dispatches is blacklisted too.
        #expect(lines.values == ["[Katana] dispatched KatanaTests.IncrementLater"])
        #expect(store.state.applied == [2, 3])
    }

    @Test func logger_linesUseTheItemsDebugDescription() throws {
        struct Described: StateUpdater {
            var debugDescription: String { "custom description" }
            func updateState(_ state: inout CounterState) {}
        }
        let lines = Recorder<String>()
        let store = makeStore(interceptors: [DispatchableLogger.interceptor(sink: { lines.append($0) })])
        try store.dispatch(Described()).wait(timeout: .seconds(10))
        #expect(lines.values == ["[Katana] dispatched custom description"])
    }
}
