import Dispatch
import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

@testable import NotificationBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private struct ServiceState: State {
    var reloads = 0
    var lastSignal: Int32 = 0
}

private final class ServiceDependencies: SideEffectDependencyContainer {
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

/// Katana-style: built from the notification the bridge posted.
private struct Reload: StateUpdater, NotificationObserverDispatchable {
    let signal: Int32

    init?(notification: Notification) {
        guard let signal = notification.userInfo?[NotificationBridge.signalKey] as? Int32 else { return nil }
        self.signal = signal
    }

    func updateState(_ state: inout ServiceState) {
        state.reloads += 1
        state.lastSignal = signal
    }
}

private extension Notification.Name {
    static let reloadRequested = Notification.Name("StoreEndToEndTests.reloadRequested")
}

extension SignalPostingTests {
    /// The whole path a service relies on: a real SIGUSR2 → the bridge's notification → an
    /// `.onNotification` observer rule → a dispatched updater → the store's state.
    @Test
    func signalReachesStoreThroughObserverRule() async throws {
        try await withKnownDisposition(of: [SIGUSR2]) {
            let center = NotificationCenter()
            let store = Store<ServiceState, ServiceDependencies>(
                interceptors: [ObserverInterceptor.observe([.onNotification(.reloadRequested, [Reload.self])], notificationCenter: center)],
                stateInitializer: { ServiceState() },
                configuration: .init(listenersAsyncProvider: DispatchQueue(label: "e2e.listeners"))
            )
            let bridge = NotificationBridge(center: center)
            let subscription = try bridge.post(.reloadRequested, onSignal: SIGUSR2)
            defer { subscription.cancel() }

            kill(getpid(), SIGUSR2)

            try await store.waitUntil("the reload") { store.state.reloads >= 1 }
            #expect(store.state.lastSignal == SIGUSR2)
        }
    }
}
