import Testing
@testable import Katana
import KatanaTestSupport

/// `DispatchableLogger.logging(...)`: the logger as an interceptor value.
@Suite struct DispatchableLoggerValueTests {
    private func makeStore(_ interceptors: Interceptors) -> TestStore {
        TestStore(interceptors: interceptors, stateInitializer: { CounterState() }, configuration: testConfiguration())
    }

    @Test func loggingValue_writesTheClosureFormsLines_andSkipsBlacklistedTypes() async throws {
        let lines = LockedList<String>()
        let store = makeStore(Interceptors {
            DispatchableLogger.logging(blackList: [NoChange.self], sink: { lines.append($0) })
        })
        try await store.dispatch(Increment(amount: 1)).settled()
        try await store.dispatch(NoChange()).settled()
        _ = try await store.dispatch(ReadCounter()).settled()
        #expect(lines.all == [
            "[Katana] dispatched KatanaTests.Increment",
            "[Katana] dispatched KatanaTests.ReadCounter",
        ])
        #expect(store.state.counter == 1)
    }
}
