import Foundation
import Katana

/// Dispatches items when a notification with the given name is posted on the interceptor's
/// notification center (optionally only when a given object posts it).
///
/// The observer is registered when the store starts and removed when the store is released.
public struct OnNotification: ObserverRuleSet {
    private let rule: ObserverRule

    /// Dispatches an instance of each type whose `init?(notification:)` returns one (Katana's form).
    public init(_ name: Notification.Name, object sender: AnyObject? = nil, dispatch types: any NotificationObserverDispatchable.Type...) {
        let types = types
        let notificationRule = NotificationRule(name: name, sender: sender.map(WeakObject.init)) { notification in
            instantiate(types) { $0.init(notification: notification) }
        }
        rule = ObserverRule(
            trigger: .notification(notificationRule),
            summary: "OnNotification(\(name.rawValue), dispatch: \(types.map { "\($0)" }.joined(separator: ", ")))"
        )
    }

    /// Dispatches the item `make` returns for the notification, if any.
    public init(_ name: Notification.Name, object sender: AnyObject? = nil, _ make: @escaping @Sendable (Notification) -> (any Dispatchable)?) {
        let notificationRule = NotificationRule(name: name, sender: sender.map(WeakObject.init)) { notification in
            make(notification).map { [$0] } ?? []
        }
        rule = ObserverRule(trigger: .notification(notificationRule), summary: "OnNotification(\(name.rawValue)) { ... }")
    }

    /// This rule.
    public var rules: [ObserverRule] {
        [rule]
    }
}
