import Foundation
import Katana

extension ObserverInterceptor {
    /// Katana's way to describe observer rules: one case per trigger, each with the types to dispatch.
    public enum ObserverType: Sendable {
        /// Decides whether a state change is one an `.onStateChange` rule reacts to.
        public typealias StateChangeObserver = @Sendable (_ prevState: any State, _ currentState: any State) -> Bool

        /// A ``StateChangeObserver`` written for one state type (see ``typedStateChange(_:)``).
        public typealias TypedStateChangeObserver<S: State> = @Sendable (_ prevState: S, _ currentState: S) -> Bool

        /// Dispatches the types when the store starts.
        case onStart([any OnStartObserverDispatchable.Type])
        /// Dispatches the types after a state updater when the observer returns true for (old, new).
        case onStateChange(StateChangeObserver, [any StateObserverDispatchable.Type])
        /// Dispatches the types after an item of exactly the given type was handled.
        case onDispatch(any Dispatchable.Type, [any DispatchObserverDispatchable.Type])
        /// Dispatches the types when the notification is posted.
        case onNotification(Notification.Name, [any NotificationObserverDispatchable.Type])

        /// A state-change observer written for one state type; it returns false for states of any other type.
        public static func typedStateChange<S: State>(
            _ closure: @escaping TypedStateChangeObserver<S>
        ) -> StateChangeObserver {
            { prev, current in
                guard let prev = prev as? S, let current = current as? S else { return false }
                return closure(prev, current)
            }
        }

        /// The same rule in the form the interceptor runs.
        var rule: ObserverRule {
            switch self {
            case .onStart(let types):
                return ObserverRule(
                    trigger: .start { instantiate(types) { $0.init() } },
                    summary: ".onStart(\(types.map { "\($0)" }))"
                )
            case .onStateChange(let observer, let types):
                let stateRule = StateChangeRule(rootType: nil) { oldView, newView in
                    let previous = oldView.state
                    let current = newView.state
                    return {
                        guard observer(previous, current) else { return [] }
                        return instantiate(types) { $0.init(prevState: previous, currentState: current) }
                    }
                }
                return ObserverRule(trigger: .stateChange(stateRule), summary: ".onStateChange(\(types.map { "\($0)" }))")
            case .onDispatch(let itemType, let types):
                let dispatchRule = DispatchRule(itemType: ObjectIdentifier(itemType), needsStates: true) { item, previous, current in
                    guard let previous, let current else { return [] }
                    return instantiate(types) { $0.init(dispatchedItem: item, prevState: previous, currentState: current) }
                }
                return ObserverRule(trigger: .dispatch(dispatchRule), summary: ".onDispatch(\(itemType), \(types.map { "\($0)" }))")
            case .onNotification(let name, let types):
                let notificationRule = NotificationRule(name: name, sender: nil) { notification in
                    instantiate(types) { $0.init(notification: notification) }
                }
                return ObserverRule(
                    trigger: .notification(notificationRule),
                    summary: ".onNotification(\(name.rawValue), \(types.map { "\($0)" }))"
                )
            }
        }
    }
}
