import Foundation
import Katana

/// Anything an observer rule list accepts: a single rule (``OnStart``, ``OnStateChange``,
/// ``OnChange``, ``OnDispatch``, ``OnNotification``) or a group of them (``ObserverRules``).
public protocol ObserverRuleSet: Sendable {
    /// The rules this value stands for, flattened.
    var rules: [ObserverRule] { get }
}

/// One observer rule in the form the interceptor runs: what triggers it and what it dispatches.
///
/// Build rules with the rule values (``OnStart``, ``OnChange``, ...) or Katana's
/// ``ObserverInterceptor/ObserverType``; this type is what they all become.
public struct ObserverRule: ObserverRuleSet {
    /// What makes a rule fire, with the work to do when it does.
    enum Trigger: Sendable {
        case start(@Sendable () -> [any Dispatchable])
        case stateChange(StateChangeRule)
        case dispatch(DispatchRule)
        case notification(NotificationRule)
    }

    let trigger: Trigger
    /// A short human description ("OnChange(of: \AppState.level)"), used in reports.
    let summary: String

    /// The rule itself.
    public var rules: [ObserverRule] {
        [self]
    }
}

/// A rule that looks at state changes.
///
/// The work is split so the store's queue does as little as possible: `capture` (before the
/// update) and `react` (after it) run on the updater queue and only pick out and compare what the
/// rule looks at; the closure `react` returns runs later, on the observer's own queue.
struct StateChangeRule: Sendable {
    /// The state type the rule is written for, or nil when it accepts any state (Katana's form).
    let rootType: (any State.Type)?
    /// Picks what the rule needs from the state before the update.
    let capture: @Sendable (any State) -> any Sendable
    /// Given what was captured and the new state, returns the work to run, or nil when nothing changed.
    let react: @Sendable (_ captured: any Sendable, _ current: any State) -> (@Sendable () -> [any Dispatchable])?
}

/// A rule that fires after an item of one exact type was handled.
struct DispatchRule: Sendable {
    let itemType: ObjectIdentifier
    /// Whether the rule needs the states before and after the item (Katana's form does).
    let needsStates: Bool
    let make: @Sendable (_ item: any Dispatchable, _ previous: (any State)?, _ current: (any State)?) -> [any Dispatchable]
}

/// A rule that fires when a notification is posted.
struct NotificationRule: Sendable {
    let name: Notification.Name
    /// Only notifications posted by this object fire the rule, when set.
    let sender: WeakObject?
    let make: @Sendable (Notification) -> [any Dispatchable]
}

/// Holds an object without keeping it alive, to filter notifications by sender.
final class WeakObject: @unchecked Sendable {
    // @unchecked: a `weak let` is never reassigned, and Swift reads weak references atomically.
    weak let object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

/// Instantiates each type whose failable initialiser returns a value.
func instantiate<T>(_ types: [T], _ make: (T) -> (any Dispatchable)?) -> [any Dispatchable] {
    types.compactMap(make)
}
