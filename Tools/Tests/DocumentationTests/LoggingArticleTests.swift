// The tests' own imports first: from `import Katana` to the store, this file is the article's
// snippet, line for line (DocumentationSnippetsTests, in the root package, looks for it).
import KatanaTestSupport
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
        try await store.dispatch(OpenOrder()).settled()
        try await store.dispatch(Tick()).settled()
        #expect(store.state.open == 1)
        // The recorder, the first interceptor, keeps an item once the rest of the chain has
        // returned, which can be after the item's promise settled. Polled: the store's own signal
        // is not open to this package, and the article's store has no interceptor to add.
        try await poll("the flight recorder to keep both items") { flightRecorder.items.count == 2 }
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
        try await orders.dispatch(OpenOrder()).settled()
        try await orders.dispatch(Tick()).settled()
        try await orders.dispatch(OpenOrder()).settled()
        #expect(orders.state.open == 2)
    }
}
