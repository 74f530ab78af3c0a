import Dispatch
import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

@testable import NotificationBridge

/// The service snippet of docs/SignalsAndTimers.md, compiled; the timer part runs (signals are covered by the
/// serialized signal suite, which owns the process's signal dispositions).
enum ReadmeService {
    struct ServiceState: State {
        var reloads = 0
        var ticks = 0
    }

    struct Reload: StateUpdater {
        func updateState(_ state: inout ServiceState) { state.reloads += 1 }
    }

    struct Tick: StateUpdater {
        func updateState(_ state: inout ServiceState) { state.ticks += 1 }
    }
}

private extension Notification.Name {
    static let readmeReloadConfiguration = Notification.Name("ReadmeBridgeExampleTests.reloadConfiguration")
    static let readmeHeartbeat = Notification.Name("ReadmeBridgeExampleTests.heartbeat")
}

@Suite struct ReadmeBridgeExampleTests {
    typealias ServiceState = ReadmeService.ServiceState
    typealias Reload = ReadmeService.Reload
    typealias Tick = ReadmeService.Tick

    @Test func serviceSnippet_countsHeartbeatsThroughObserverRules() async throws {
        let center = NotificationCenter()
        let store = Store<ServiceState, EmptySideEffectDependencyContainer>(
            interceptors: [
                ObserverInterceptor.observe(notificationCenter: center) {
                    OnNotification(.readmeReloadConfiguration) { _ in Reload() }
                    OnNotification(.readmeHeartbeat) { note in
                        // userInfo[NotificationBridge.fireCountKey] is 1, 2, 3, ...
                        Tick()
                    }
                },
            ],
            stateInitializer: { ServiceState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "readme.bridge.listeners"))
        )
        let bridge = NotificationBridge(center: center)
        let heartbeat = try bridge.post(.readmeHeartbeat, every: .milliseconds(5))
        try bridge.post(.readmeHeartbeat, after: .milliseconds(1))
        try await store.waitUntil("four ticks") { store.state.ticks >= 4 }
        heartbeat.cancel()
        bridge.cancelAll()
        #expect(store.state.reloads == 0)
    }
}
