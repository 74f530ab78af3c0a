import Testing
@testable import Katana

/// `DispatchableLogger.logging(...)`: the logger as an interceptor value.
@Suite struct DispatchableLoggerValueTests {
    private func makeStore(_ interceptors: Interceptors) -> TestStore {
        TestStore(interceptors: interceptors, stateInitializer: { CounterState() }, configuration: testConfiguration())
    }

    @Test func loggingValue_writesTheClosureFormsLines_andSkipsBlacklistedTypes() throws {
        let lines = Recorder<String>()
        let store = makeStore(Interceptors {
            DispatchableLogger.logging(blackList: [NoChange.self], sink: { lines.append($0) })
        })
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        try store.dispatch(NoChange()).wait(timeout: .seconds(10))
        _ = try store.dispatch(ReadCounter()).wait(timeout: .seconds(10))
        #expect(lines.values == [
            "[Katana] dispatched KatanaTests.Increment",
            "[Katana] dispatched KatanaTests.ReadCounter",
        ])
        #expect(store.state.counter == 1)
    }
}
