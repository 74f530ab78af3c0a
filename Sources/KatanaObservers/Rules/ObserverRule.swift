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
/// The work is split so the store's queue does as little as possible: an instance's `capture`
/// (before the update) and `react` (after it) run on the updater queue and only pick out and
/// compare what the rule looks at; the closure `react` returns runs later, on the observer's own
/// queue. Each store makes its own instances (a rule value can be shared by several stores).
@usableFromInline
struct StateChangeRule: Sendable {
    /// The state type the rule is written for, or nil when it accepts any state (Katana's form).
    @usableFromInline
    let rootType: (any State.Type)?
    /// Makes this rule's per-store instance.
    @usableFromInline
    let makeInstance: @Sendable () -> StateRuleInstance

    @usableFromInline
    init(rootType: (any State.Type)?, makeInstance: @escaping @Sendable () -> StateRuleInstance) {
        self.rootType = rootType
        self.makeInstance = makeInstance
    }

    /// A rule from two closures that hand what they capture over type-erased: for the rules that
    /// keep whole states, where the hand-over is not what costs.
    init(
        rootType: (any State.Type)?,
        capture: @escaping @Sendable (StateView) -> any Sendable,
        react: @escaping @Sendable (_ captured: any Sendable, _ current: StateView) -> (@Sendable () -> [any Dispatchable])?
    ) {
        self.init(rootType: rootType) {
            let captured = Slot<any Sendable>()
            return StateRuleInstance(
                capture: { captured.value = capture($0) },
                react: { view in
                    guard let value = captured.value else { return nil }
                    captured.value = nil
                    return react(value, view)
                }
            )
        }
    }
}

/// One state rule running in one store; used only on that store's updater queue.
@usableFromInline
struct StateRuleInstance {
    /// Picks what the rule needs from the state before the update.
    @usableFromInline
    let capture: (StateView) -> Void
    /// Looks at the state after the update; returns the work to run, or nil when nothing changed.
    @usableFromInline
    let react: (StateView) -> (@Sendable () -> [any Dispatchable])?

    @usableFromInline
    init(capture: @escaping (StateView) -> Void, react: @escaping (StateView) -> (@Sendable () -> [any Dispatchable])?) {
        self.capture = capture
        self.react = react
    }
}

/// A place for one value between a rule's `capture` and its `react`; owned by one store's updater
/// queue. The value lives behind a pointer, so reading and writing it skips the run-time
/// exclusivity checks a class property pays on every access (the queue already makes them exclusive).
@usableFromInline
final class Slot<Value> {
    @usableFromInline
    let storage: UnsafeMutablePointer<Value?>

    @usableFromInline
    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: nil)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    @usableFromInline
    var value: Value? {
        get { storage.pointee }
        set { storage.pointee = newValue }
    }
}

/// The store's state as a state rule sees it: the value (type-erased) and, for the duration of the
/// rule's call only, a pointer to it, so a rule that reads one field reads it in place.
@usableFromInline
struct StateView {
    /// The state, type-erased.
    @usableFromInline
    let state: any State
    /// Where the state's value is; valid only during the call the view is passed to.
    @usableFromInline
    let pointer: UnsafeRawPointer

    /// Calls `body` with a view of `state`, opening the existential once for all the rules.
    static func with<Result>(_ state: any State, _ body: (StateView) -> Result) -> Result {
        func open<Opened: State>(_ opened: Opened) -> Result {
            withUnsafePointer(to: opened) { body(StateView(state: state, pointer: UnsafeRawPointer($0))) }
        }
        return open(state)
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
