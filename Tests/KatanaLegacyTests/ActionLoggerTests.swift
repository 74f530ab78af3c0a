import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

@Suite struct ActionLoggerTests {
    @available(*, deprecated, message: "Exercises the deprecated ActionLogger")
    @Test func logger_writesEveryItemNotInTheBlackList_inOrder() async throws {
        let lines = LockedList<String>()
        let logger = ActionLogger.middleware(blackList: [AddAction.self]) { lines.append($0) }
        let store = makeStore(interceptors: [middlewareToInterceptor(logger)])
        try await store.dispatch(AppendAction(tag: "a")).settled()
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await store.dispatch(Toggle().completedAction()).settled()
        try await store.dispatch(AppendUpdater(tag: "b")).settled()
        // The line is written once the item has been passed on, so just after its promise resolves.
        try await lines.waitForCount(3)
        #expect(lines.count == 3)
        #expect(lines.all == [
            "[Action]: \(String(reflecting: AppendAction.self))",
            "[Action]: \(String(reflecting: Toggle.self)).completed",
            "[Action]: \(String(reflecting: AppendUpdater.self))",
        ])
        // Logging does not change what is handled.
        #expect(store.state.counter == 1)
        #expect(store.state.log == ["a", "completed", "b"])
    }
}
