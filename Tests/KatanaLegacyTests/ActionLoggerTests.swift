import Katana
import KatanaLegacy
import Testing

@Suite struct ActionLoggerTests {
    @available(*, deprecated, message: "Exercises the deprecated ActionLogger")
    @Test func logger_writesEveryItemNotInTheBlackList_inOrder() throws {
        let lines = Recorder<String>()
        let logger = ActionLogger.middleware(blackList: [AddAction.self]) { lines.append($0) }
        let store = makeStore(interceptors: [middlewareToInterceptor(logger)])
        try store.dispatch(AppendAction(tag: "a")).wait(timeout: .seconds(10))
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        try store.dispatch(Toggle().completedAction()).wait(timeout: .seconds(10))
        try store.dispatch(AppendUpdater(tag: "b")).wait(timeout: .seconds(10))
        // The line is written once the item has been passed on, so just after its promise resolves.
        #expect(eventually { lines.values.count == 3 })
        #expect(lines.values == [
            "[Action]: \(String(reflecting: AppendAction.self))",
            "[Action]: \(String(reflecting: Toggle.self)).completed",
            "[Action]: \(String(reflecting: AppendUpdater.self))",
        ])
        // Logging does not change what is handled.
        #expect(store.state.counter == 1)
        #expect(store.state.log == ["a", "completed", "b"])
    }
}
