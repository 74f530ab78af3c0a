import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import KatanaTesting
import Testing
@testable import katana_service_demo

/// A heartbeat timer on a test clock: it posts the heartbeat when the test advances time.
private final class ClockHeartbeatTimer: HeartbeatTimer {
    private let task: Task<Void, any Error>

    init(clock: TestClock, interval: Duration) {
        task = clock.startTask {
            while true {
                try await clock.sleep(for: interval)
                NotificationCenter.default.post(name: .heartbeat, object: nil)
            }
        }
    }

    func cancel() {
        task.cancel()
    }
}

/// The demo's rules, tested in process with `KatanaTesting`: the configuration it loads at the
/// start, the reload a notification asks for, and the heartbeat, driven by a test clock instead of
/// real time. Serialized: the rules listen on the default notification center.
@Suite(.serialized) struct DemoRulesTests {
    private typealias DemoTestStore = TestStore<DemoState, DemoDependencies>

    private static let info250 = ServiceConfiguration(name: "katana-service-demo", logLevel: .info, heartbeatMilliseconds: 250)
    private static let debug250 = ServiceConfiguration(name: "katana-service-demo", logLevel: .debug, heartbeatMilliseconds: 250)

    /// A test store with the demo's service rules, whose heartbeat timers run on the test clock
    /// and whose configurations come from `configurations` (the built-in ones when nil).
    private func makeStore(configurations: [ServiceConfiguration]? = nil) -> DemoTestStore {
        let clock = TestClock()
        return DemoTestStore(
            initialState: DemoState(),
            interceptors: [ObserverInterceptor.observe { DemoRules.service }],
            clock: clock
        ) { dependencies in
            dependencies.heartbeat.useTimers { interval in ClockHeartbeatTimer(clock: clock, interval: interval) }
            if let configurations {
                // The configuration reader's calls: 0, 1, 2, …
                let calls = LockedValue(-1)
                dependencies.useConfigurations {
                    configurations[min(calls.withLock { $0 += 1; return $0 }, configurations.count - 1)]
                }
            }
        }
    }

    /// Stops the heartbeat, as the demo's shutdown does, then checks what the test left.
    private func finish(_ store: DemoTestStore) async {
        store.dependencies.heartbeat.stop()
        await store.finish()
    }

    /// Receives the `CountReload` that `LoadConfiguration` dispatches once the new configuration is
    /// in force, and checks that the side effects the rules dispatched for what it changed (named
    /// in `sideEffects`) were handled too, in either order: they wait for a worker of the store's,
    /// while `CountReload`, dispatched after them, is an updater the store may apply first.
    private func receiveReloadCount(_ store: DemoTestStore, along sideEffects: [String]) async {
        store.exhaustivity = .off
        await store.receive(CountReload.self) { $0.reloads = 1 }
        store.exhaustivity = .on
        await store.skipReceivedItems()
        let items = store.handledItems
        let reload = items.lastIndex { $0.item is SetConfiguration } ?? items.startIndex
        let others = items[(reload + 1)...].filter { !($0.item is CountReload) }
        #expect(others.map { String(describing: type(of: $0.item)) }.sorted() == sideEffects.sorted())
        #expect(items.filter { $0.item is CountReload }.count == 1)
        #expect(store.state.reloads == 1)
    }

    private static func isTick(_ item: any Dispatchable) -> Bool {
        item is Tick
    }

    /// The demo's start: the configuration is loaded and in force, and the heartbeat scheduled.
    private func start(_ store: DemoTestStore, with configuration: ServiceConfiguration = Self.info250) async {
        await store.send(LoadConfiguration(reason: .start)) { $0.configuration = configuration }
        await store.receive(SetConfiguration.self) { $0.configuration = configuration }
        await store.receive(ScheduleHeartbeat.self)
    }

    /// Posts the reload notification, and receives the reload that brings `configuration` in force.
    private func reload(_ store: DemoTestStore, bringing configuration: ServiceConfiguration) async {
        NotificationCenter.default.post(name: .reloadConfiguration, object: nil)
        await store.receive(LoadConfiguration.self)
        await store.receive(SetConfiguration.self) { $0.configuration = configuration }
    }

    @Test func theStart_loadsTheConfiguration_andSchedulesTheHeartbeat() async {
        let store = makeStore()
        await start(store)
        // `receive` returns once the item is handled; the timer it started settles here.
        await store.advance(by: .zero)
        #expect(store.clock.sleepers.count == 1)
        await finish(store)
    }

    @Test func theHeartbeat_ticksWhenTheTestClockAdvances() async {
        let store = makeStore()
        await start(store)
        await store.advance(by: .milliseconds(249))
        await store.advance(by: .milliseconds(1))
        await store.receive("Tick", where: Self.isTick) { $0.ticks = 1 }
        await store.advance(by: .milliseconds(500))
        await store.receive("Tick", where: Self.isTick) { $0.ticks = 2 }
        await store.receive("Tick", where: Self.isTick) { $0.ticks = 3 }
        await finish(store)
    }

    @Test func aReloadNotification_dispatchesAReload() async {
        let store = makeStore()
        await start(store)

        await reload(store, bringing: Self.debug250)
        await receiveReloadCount(store, along: ["AnnounceLogLevel"])
        await finish(store)
    }

    @Test func aReloadThatChangesTheHeartbeat_ticksAtTheNewInterval() async {
        let hourly = ServiceConfiguration(name: "demo", logLevel: .info, heartbeatMilliseconds: 3_600_000)
        let fast = ServiceConfiguration(name: "demo", logLevel: .info, heartbeatMilliseconds: 20)
        let store = makeStore(configurations: [hourly, fast])
        await start(store, with: hourly)
        // An hour-long heartbeat: nothing ticks for a while.
        await store.advance(by: .seconds(60))

        await reload(store, bringing: fast)
        await receiveReloadCount(store, along: ["ScheduleHeartbeat"])
        // The timer was re-created: it ticks every 20 ms from now, and the hourly one is gone
        // (once the new timer has settled: `receive` returns as soon as the item is handled).
        await store.advance(by: .zero)
        #expect(store.clock.sleepers.count == 1)
        await store.advance(by: .milliseconds(60))
        await store.receive("Tick", where: Self.isTick) { $0.ticks = 1 }
        await store.receive("Tick", where: Self.isTick) { $0.ticks = 2 }
        await store.receive("Tick", where: Self.isTick) { $0.ticks = 3 }
        await finish(store)
    }
}
