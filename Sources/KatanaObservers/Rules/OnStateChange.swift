import Katana

/// Dispatches items after state changes of a store whose state is `S`.
///
/// It looks at whole states; to react to one field, ``OnChange`` is cheaper and clearer. Like every
/// state rule it ignores side effects: it is checked after each handled state updater.
public struct OnStateChange<S: State>: ObserverRuleSet {
    private let rule: ObserverRule

    /// When `condition(old, new)` holds, dispatches an instance of each type whose
    /// `init?(prevState:currentState:)` returns one (Katana's form).
    public init(
        _ stateType: S.Type = S.self,
        when condition: @escaping @Sendable (_ old: S, _ new: S) -> Bool,
        dispatch types: any StateObserverDispatchable.Type...
    ) {
        let types = types
        self.init(summary: "OnStateChange<\(S.self)>(dispatch: \(types.map { "\($0)" }.joined(separator: ", ")))") { old, new in
            condition(old, new) ? instantiate(types) { $0.init(prevState: old, currentState: new) } : []
        }
    }

    /// After each state change, dispatches the item `make` returns for `(old, new)`, if any.
    public init(_ stateType: S.Type = S.self, _ make: @escaping @Sendable (_ old: S, _ new: S) -> (any Dispatchable)?) {
        self.init(summary: "OnStateChange<\(S.self)> { ... }") { old, new in
            make(old, new).map { [$0] } ?? []
        }
    }

    private init(summary: String, _ work: @escaping @Sendable (S, S) -> [any Dispatchable]) {
        let stateRule = StateChangeRule(rootType: S.self) { oldView, newView in
            guard let old = oldView.state as? S, let new = newView.state as? S else { return nil }
            return { work(old, new) }
        }
        rule = ObserverRule(trigger: .stateChange(stateRule), summary: summary)
    }

    /// This rule.
    public var rules: [ObserverRule] {
        [rule]
    }
}
