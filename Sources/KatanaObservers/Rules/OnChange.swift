import Katana

/// Dispatches items when one value of the state actually changes: the value at a key path is
/// compared before and after each state updater, and the rule fires only when it differs.
///
/// With a closure, only that value is read and compared on the store's queue; the whole state is
/// neither diffed nor kept, so the rule costs one comparison per update whatever the size of the
/// state. The Katana form (types) keeps the states around the update, because the types receive them.
public struct OnChange<Root: State, Value: Equatable & Sendable>: ObserverRuleSet {
    private let rule: ObserverRule

    /// When the value changes, dispatches an instance of each type whose
    /// `init?(prevState:currentState:)` returns one (Katana's form; it receives the whole states).
    public init(of keyPath: KeyPath<Root, Value> & Sendable, dispatch types: any StateObserverDispatchable.Type...) {
        let types = types
        let stateRule = StateChangeRule(
            rootType: Root.self,
            capture: { state in state },
            react: { captured, current in
                guard let old = captured as? Root, let new = current as? Root,
                      old[keyPath: keyPath] != new[keyPath: keyPath] else { return nil }
                return { instantiate(types) { $0.init(prevState: old, currentState: new) } }
            }
        )
        rule = ObserverRule(
            trigger: .stateChange(stateRule),
            summary: "OnChange(of: \(keyPath), dispatch: \(types.map { "\($0)" }.joined(separator: ", ")))"
        )
    }

    /// When the value changes, dispatches the item `make` returns for the old and new value, if any.
    public init(of keyPath: KeyPath<Root, Value> & Sendable, _ make: @escaping @Sendable (_ old: Value, _ new: Value) -> (any Dispatchable)?) {
        let stateRule = StateChangeRule(
            rootType: Root.self,
            capture: { state -> any Sendable in (state as? Root)?[keyPath: keyPath] as Value? },
            react: { captured, current in
                guard let oldValue = captured as? Value?, let oldValue,
                      let newValue = (current as? Root)?[keyPath: keyPath],
                      oldValue != newValue else { return nil }
                return { make(oldValue, newValue).map { [$0] } ?? [] }
            }
        )
        rule = ObserverRule(trigger: .stateChange(stateRule), summary: "OnChange(of: \(keyPath)) { ... }")
    }

    /// This rule.
    public var rules: [ObserverRule] {
        [rule]
    }
}
