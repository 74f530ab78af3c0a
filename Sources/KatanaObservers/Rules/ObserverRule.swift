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
    @usableFromInline
    enum Trigger: Sendable {
        case start(@Sendable () -> [any Dispatchable])
        case stateChange(StateChangeRule)
        case dispatch(DispatchRule)
        case notification(NotificationRule)
    }

    @usableFromInline
    let trigger: Trigger
    /// A short human description ("OnChange(of: \AppState.level)"), used in reports.
    @usableFromInline
    let summary: String

    @usableFromInline
    init(trigger: Trigger, summary: String) {
        self.trigger = trigger
        self.summary = summary
    }

    /// The rule itself.
    public var rules: [ObserverRule] {
        [self]
    }
}

/// A rule that looks at state changes.
///
/// The work is split so the store's queue does as little as possible: an instance's `react` runs
/// on the updater queue after each update, with views of the states before and after it, and only
/// picks out and compares what the rule looks at; the closure it returns runs later, on the
/// observer's own queue. Each store makes its own instances (a rule value can be shared by several
/// stores).
@usableFromInline
struct StateChangeRule: Sendable {
    /// What a rule does after an update: given the states before and after, the work to run, or
    /// nil when nothing it watches changed.
    @usableFromInline
    typealias Reaction = @Sendable (_ old: StateView, _ new: StateView) -> (@Sendable () -> [any Dispatchable])?

    /// The state type the rule is written for, or nil when it accepts any state (Katana's form).
    @usableFromInline
    let rootType: (any State.Type)?
    /// What the rule does after an update.
    @usableFromInline
    let react: Reaction

    @usableFromInline
    init(rootType: (any State.Type)?, react: @escaping Reaction) {
        self.rootType = rootType
        self.react = react
    }

    /// This rule's instance for one store.
    func makeInstance() -> StateRuleInstance {
        StateRuleInstance(react: react)
    }
}

/// One state rule running in one store; used only on that store's updater queue.
///
/// A class with a constant closure, so the runtime can call it through a borrowed reference
/// (docs/PERFORMANCE.md, "Updaters: observer with 100 OnChange rules").
final class StateRuleInstance {
    /// Looks at the states before and after the update.
    let react: StateChangeRule.Reaction

    init(react: @escaping StateChangeRule.Reaction) {
        self.react = react
    }
}

/// A rule that fires after an item of one exact type was handled.
@usableFromInline
struct DispatchRule: Sendable {
    let itemType: ObjectIdentifier
    /// Whether the rule needs the states before and after the item (Katana's form does).
    let needsStates: Bool
    let make: @Sendable (_ item: any Dispatchable, _ previous: (any State)?, _ current: (any State)?) -> [any Dispatchable]
}

/// A rule that fires when a notification is posted.
@usableFromInline
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
