import Katana

/// Dispatches items once, when the store starts (after its state exists, before it handles anything).
public struct OnStart: ObserverRuleSet {
    private let rule: ObserverRule

    /// Dispatches an instance of each type whose `init?()` returns one (Katana's form).
    public init(_ types: any OnStartObserverDispatchable.Type...) {
        let types = types
        rule = ObserverRule(
            trigger: .start { instantiate(types) { $0.init() } },
            summary: "OnStart(\(types.map { "\($0)" }.joined(separator: ", ")))"
        )
    }

    /// Dispatches the item `make` returns, if any.
    public init(_ make: @escaping @Sendable () -> (any Dispatchable)?) {
        rule = ObserverRule(trigger: .start { make().map { [$0] } ?? [] }, summary: "OnStart { ... }")
    }

    /// This rule.
    public var rules: [ObserverRule] {
        [rule]
    }
}
