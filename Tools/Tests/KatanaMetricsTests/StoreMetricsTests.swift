import BridgeTestSupport
import Dispatch
import Katana
import KatanaMetrics
import KatanaTestSupport
import MetricsTestKit
import Testing

/// `StoreMetrics` counts every item by type, kind and outcome, times updaters and synchronous side
/// effects, and reads the store's load into two gauges, through the factory it is given.
@Suite struct StoreMetricsTests {
    /// A store whose chain is: the finish line, `metrics`, then `after`; with the finish line's
    /// list to wait on.
    static func store(_ metrics: StoreMetrics, then after: Interceptors = Interceptors {}) -> (store: CounterStore, finished: LockedList<String>) {
        let finished = LockedList<String>()
        let store = CounterStore(interceptors: Interceptors {
            FinishLine(finished: finished)
            metrics
            after
        })
        return (store, finished)
    }

    /// The dimensions of the items counter for `type`.
    static func counted(_ type: Any.Type, _ kind: String, _ outcome: String) -> [(String, String)] {
        [("type", name(type)), ("kind", kind), ("outcome", outcome)]
    }

    @Test func itemsAreCountedPerTypeKindAndOutcome() async throws {
        let metrics = TestMetrics()
        let (store, finished) = Self.store(StoreMetrics(factory: metrics), then: Interceptors {
            DropDropped()
            RefuseRefused()
        })
        for _ in 0..<3 {
            try await store.dispatch(Bump()).settled()
        }
        try await store.dispatch(Dropped()).settled()
        for _ in 0..<2 {
            await #expect(throws: Refusal()) { try await store.dispatch(Refused()).settled() }
        }
        try await store.dispatch(Nap()).settled()
        try await finished.waitForCount(7)

        #expect(try metrics.expectCounter("katana_items", Self.counted(Bump.self, "updater", "handled")).totalValue == 3)
        #expect(try metrics.expectCounter("katana_items", Self.counted(Dropped.self, "updater", "blocked")).totalValue == 1)
        #expect(try metrics.expectCounter("katana_items", Self.counted(Refused.self, "updater", "rejected")).totalValue == 2)
        #expect(try metrics.expectCounter("katana_items", Self.counted(Nap.self, "sideEffect", "handled")).totalValue == 1)
        // Only the outcomes that happened have a counter.
        #expect(metrics.counters(label: "katana_items").count == 4)
        #expect(metrics.counterTotal(label: "katana_items") == 7)
    }

    @Test func theUpdaterTimerRecordsOneValuePerHandledUpdater() async throws {
        let metrics = TestMetrics()
        let (store, finished) = Self.store(StoreMetrics(factory: metrics), then: Interceptors { DropDropped() })
        for _ in 0..<3 {
            try await store.dispatch(Bump()).settled()
        }
        try await store.dispatch(Dropped()).settled()
        try await finished.waitForCount(4)

        let bumps = try metrics.expectTimer("katana_updater_duration", [("type", name(Bump.self))])
        #expect(bumps.values.count == 3)
        #expect(bumps.values.allSatisfy { $0 >= 0 })
        // A blocked updater was not applied: there is nothing to time.
        #expect(metrics.timers(label: "katana_updater_duration", dimensions: [("type", name(Dropped.self))]).allSatisfy { $0.values.isEmpty })
        #expect(metrics.timers(label: "katana_side_effect_duration").isEmpty)
    }

    @Test func theSideEffectTimerCoversASynchronousSideEffectsBody() async throws {
        let metrics = TestMetrics()
        let (store, finished) = Self.store(StoreMetrics(factory: metrics))
        try await store.dispatch(Nap()).settled()
        try await finished.waitForCount(1)

        let naps = try metrics.expectTimer("katana_side_effect_duration", [("type", name(Nap.self))])
        #expect(naps.values.count == 1)
        // The body sleeps 20 ms, inside `next`: a lower bound, whatever the machine's speed.
        #expect(naps.values.allSatisfy { $0 >= 20_000_000 })
        #expect(metrics.timers(label: "katana_updater_duration").isEmpty)
    }

    @Test func asyncSideEffectsAreTimedFromTheirEnd_theWholeTask_perOutcome() async throws {
        let metrics = TestMetrics()
        let (store, finished) = Self.store(StoreMetrics(factory: metrics))
        // Awaited, not waited for: the side effect's task needs a thread of the cooperative pool.
        try await store.dispatch(AsyncNap()).settled()
        await #expect(throws: Refusal()) { try await store.dispatch(AsyncNap(fails: true)).settled() }
        try await finished.waitForCount(3)

        #expect(try metrics.expectCounter("katana_items", Self.counted(AsyncNap.self, "asyncSideEffect", "handled")).totalValue == 2)
        #expect(try metrics.expectCounter("katana_items", Self.counted(Bump.self, "updater", "handled")).totalValue == 1)
        // The end is reported before the promise settles: both are recorded by now.
        let succeeded = try metrics.expectTimer("katana_async_side_effect_duration", [("type", name(AsyncNap.self)), ("outcome", "succeeded")])
        let failed = try metrics.expectTimer("katana_async_side_effect_duration", [("type", name(AsyncNap.self)), ("outcome", "failed")])
        #expect(succeeded.values.count == 1)
        #expect(failed.values.count == 1)
        // The body sleeps 20 ms after its first suspension: the whole task, not the hand-over.
        #expect(succeeded.values.allSatisfy { $0 >= 20_000_000 })
        #expect(failed.values.allSatisfy { $0 >= 20_000_000 })
        #expect(metrics.timers(label: "katana_side_effect_duration").isEmpty)
    }

    @Test func theGaugesAreReadWhenTheStoreStarts() throws {
        let metrics = TestMetrics()
        let (store, _) = Self.store(StoreMetrics(factory: metrics))

        #expect(try metrics.expectGauge("katana_waiting_items").values == [0])
        #expect(try metrics.expectGauge("katana_active_side_effects").values == [0])
        withExtendedLifetime(store) {}
    }

    @Test func theGaugesAreReadAtMostOncePerInterval() async throws {
        let metrics = TestMetrics()
        // An hour: no item of this test comes after the next sampling time.
        let (store, finished) = Self.store(StoreMetrics(gaugeInterval: .seconds(3_600), factory: metrics))
        for _ in 0..<5 {
            try await store.dispatch(Bump()).settled()
        }
        try await finished.waitForCount(5)

        #expect(try metrics.expectGauge("katana_waiting_items").values.count == 1)
        #expect(try metrics.expectGauge("katana_active_side_effects").values.count == 1)
    }

    @Test func activeSideEffectsCountsASideEffectThatIsStillRunning() async throws {
        let metrics = TestMetrics()
        let (store, finished) = Self.store(StoreMetrics(gaugeInterval: .zero, factory: metrics))
        let started = LockedList<String>()
        let release = DispatchSemaphore(value: 0)
        let parked = store.dispatch(Parked(started: started, release: release))
        defer { release.signal() }
        try await started.waitForCount(1)

        // An item that passes while the side effect runs reads the load.
        try await store.dispatch(Bump()).settled()
        try await finished.waitForCount(1)
        let active = try metrics.expectGauge("katana_active_side_effects")
        #expect(active.lastValue.map { $0 >= 1 } == true)

        release.signal()
        try await parked.settled()
    }

    @Test func waitingItemsCountsTheItemsBehindABusyStoreQueue() async throws {
        let metrics = TestMetrics()
        let holding = LockedList<String>()
        let open = DispatchSemaphore(value: 0)
        let (store, finished) = Self.store(StoreMetrics(gaugeInterval: .zero, factory: metrics), then: Interceptors {
            Gate(holding: holding, open: open)
        })
        let held = store.dispatch(Held())
        defer { open.signal() }
        try await holding.waitForCount(1)
        // The store's queue is busy with `Held`: these three wait in the inbox.
        let bumps = (0..<3).map { _ in store.dispatch(Bump()) }
        open.signal()
        try await held.settled()
        for bump in bumps {
            try await bump.settled()
        }
        try await finished.waitForCount(4)

        // Read after `Held` (three waiting), then after each `Bump` (two, one, none).
        let waiting = try metrics.expectGauge("katana_waiting_items").values
        #expect(waiting.max() == 3)
        #expect(waiting.last == 0)
        #expect(store.state.value == 13)
    }

    @Test func thePrefixAndTheDimensionsGivenAreOnEveryMetric() async throws {
        let metrics = TestMetrics()
        let service = ("service", "orders")
        let (store, finished) = Self.store(StoreMetrics(prefix: "orders", dimensions: [service], factory: metrics))
        try await store.dispatch(Bump()).settled()
        try await store.dispatch(Nap()).settled()
        try await finished.waitForCount(2)

        let labels = metrics.counters.map(\.label) + metrics.timers.map(\.label) + metrics.recorders.map(\.label)
        #expect(Set(labels) == ["orders_items", "orders_updater_duration", "orders_side_effect_duration", "orders_waiting_items", "orders_active_side_effects"])
        let dimensions = metrics.counters.map(\.dimensions) + metrics.timers.map(\.dimensions) + metrics.recorders.map(\.dimensions)
        #expect(dimensions.count == 6)
        #expect(dimensions.allSatisfy { $0.contains { $0 == service } })
        #expect(try metrics.expectCounter("orders_items", Self.counted(Bump.self, "updater", "handled") + [service]).totalValue == 1)
        #expect(try metrics.expectGauge("orders_waiting_items", [service]).values.isEmpty == false)
    }

    @Test func aTypeAndOutcomeSeenBeforeCallsTheFactoryNoMore() async throws {
        let factory = CountingFactory()
        let (store, finished) = Self.store(StoreMetrics(factory: factory), then: Interceptors { DropDropped() })
        // Made when the store starts: the two gauges.
        #expect(factory.handlesMade == 2)
        try await store.dispatch(Bump()).settled()
        try await finished.waitForCount(1)
        // The first `Bump`: its counter (handled) and its timer.
        #expect(factory.handlesMade == 4)
        for _ in 0..<20 {
            try await store.dispatch(Bump()).settled()
        }
        try await finished.waitForCount(21)
        #expect(factory.handlesMade == 4)
        try await store.dispatch(Dropped()).settled()
        try await store.dispatch(Dropped()).settled()
        try await finished.waitForCount(23)
        // A new type: its counter (blocked) and its timer, once.
        #expect(factory.handlesMade == 6)
        #expect(try factory.metrics.expectCounter("katana_items", Self.counted(Bump.self, "updater", "handled")).totalValue == 21)
    }
}
