import Testing
import Katana
import KatanaLogging
import KatanaMetrics
import KatanaRecording
import Logging

struct OrdersState: State {
    var open = 0
}

struct OpenOrder: StateUpdater {
    func updateState(_ state: inout OrdersState) { state.open += 1 }
}

struct Tick: StateUpdater {
    func updateState(_ state: inout OrdersState) {}
}

let flightRecorder = FlightRecorder<OrdersState>(capacity: 1_000)
let store = Store<OrdersState, EmptySideEffectDependencyContainer>(interceptors: Interceptors {
    StoreRecorder(to: flightRecorder)                                    // first, when recording
    StoreLogger(Logger(label: "orders.store"), skipping: [Tick.self])
    StoreMetrics(dimensions: [("store", "orders")])
})

/// docs/LoggingAndMetrics.md, compiled and run: the article's store and logger, as written.
@Suite struct LoggingArticleTests {
    @Test func theArticlesStoreHandlesItsItemsWithBothInterceptorsInstalled() async throws {
        try await store.dispatch(OpenOrder()).value
        try await store.dispatch(Tick()).value
        #expect(store.state.open == 1)
        #expect(flightRecorder.items.map { String(describing: type(of: $0.item)) } == ["OpenOrder", "Tick"])
    }

    @Test func theArticlesLoggerPassesOnWhatItLogsAndWhatItSkips() async throws {
        let logger = StoreLogger(
            Logger(label: "orders.store"),
            level: .debug,           // handled and blocked items
            rejectedLevel: .warning, // items a later interceptor threw for; the error is rethrown
            skipping: [Tick.self]    // item types that never get a line
        )
        let orders = Store<OrdersState, EmptySideEffectDependencyContainer>(interceptors: Interceptors { logger })
        try await orders.dispatch(OpenOrder()).value
        try await orders.dispatch(Tick()).value
        try await orders.dispatch(OpenOrder()).value
        #expect(orders.state.open == 2)
    }
}
