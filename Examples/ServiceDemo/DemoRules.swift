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
    /// What every run does. (`main` dispatches the first `LoadConfiguration` itself, once it
    /// listens to the signals.)
    static let service = ObserverRules("service") {
        OnNotification(.heartbeat) { _ in Tick() }
        OnNotification(.reloadConfiguration) { _ in LoadConfiguration(reason: .reload) }
        OnChange(of: \DemoState.configuration?.heartbeatMilliseconds) { old, new in
            new.map { ScheduleHeartbeat(oldMilliseconds: old, newMilliseconds: $0) }
        }
        OnChange(of: \DemoState.configuration?.logLevel) { old, new in
            guard let old, let new else { return nil }
            return AnnounceLogLevel(old: old, new: new)
        }
        OnNotification(.terminate) { notification in
            let signal = notification.userInfo?[NotificationBridge.signalKey] as? Int32
            return RequestShutdown(signalName: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    /// The scripted tour: after the first heartbeat, type three searches quickly; after three
    /// heartbeats, play the operator sending SIGHUP; after the reload, send SIGTERM.
    static let tour = ObserverRules("tour") {
        OnChange(of: \DemoState.ticks) { _, ticks in
            switch ticks {
            case 1: TypeSearchQueries(queries: ["s", "si", "side"])
            case 3: SendSignal(signal: SIGHUP, name: "SIGHUP")
            default: nil
            }
        }
        OnChange(of: \DemoState.reloads) { _, reloads in
            reloads == 1 ? SendSignal(signal: SIGTERM, name: "SIGTERM") : nil
        }
    }
}
