import Katana
import KatanaObservers
import NotificationBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo's reactions, as declarative observer rules.
enum DemoRules {
    /// What every run does.
    static let service = ObserverRules("service") {
        OnStart { LoadConfiguration(reason: .start) }
        OnNotification(.heartbeat) { _ in Tick() }
        OnNotification(.reloadConfiguration) { _ in LoadConfiguration(reason: .reload) }
        OnChange(of: \DemoState.configuration?.logLevel) { old, new in
            old == nil ? nil : AnnounceLogLevel(old: old, new: new)
        }
        OnNotification(.terminate) { notification in
            let signal = notification.userInfo?[NotificationBridge.signalKey] as? Int32
            return Shutdown(signalName: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    /// The scripted tour: after three heartbeats, play the operator sending SIGHUP; after the
    /// reload, send SIGTERM.
    static let tour = ObserverRules("tour") {
        OnChange(of: \DemoState.ticks) { _, ticks in
            ticks == 3 ? SendSignal(signal: SIGHUP, name: "SIGHUP") : nil
        }
        OnChange(of: \DemoState.reloads) { _, reloads in
            reloads == 1 ? SendSignal(signal: SIGTERM, name: "SIGTERM") : nil
        }
    }
}
