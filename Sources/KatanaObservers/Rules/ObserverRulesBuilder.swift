/// Builds a list of observer rules from rule values, groups and Swift control flow
/// (`if`, `if let`, `if`/`else`, `switch`, `for`, and optional rules).
@resultBuilder
public enum ObserverRulesBuilder {
    /// A rule or a group.
    public static func buildExpression(_ set: some ObserverRuleSet) -> [ObserverRule] {
        set.rules
    }

    /// An optional rule or group: nothing when it is nil.
    public static func buildExpression(_ set: (some ObserverRuleSet)?) -> [ObserverRule] {
        set?.rules ?? []
    }

    /// Rules listed one after the other.
    public static func buildBlock(_ parts: [ObserverRule]...) -> [ObserverRule] {
        parts.flatMap { $0 }
    }

    /// The rules of an `if` without `else` (or an `if let`): nothing when the condition fails.
    public static func buildOptional(_ part: [ObserverRule]?) -> [ObserverRule] {
        part ?? []
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [ObserverRule]) -> [ObserverRule] {
        part
    }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [ObserverRule]) -> [ObserverRule] {
        part
    }

    /// The rules of every iteration of a `for` loop.
    public static func buildArray(_ parts: [[ObserverRule]]) -> [ObserverRule] {
        parts.flatMap { $0 }
    }

    /// Rules inside an `if #available` check.
    public static func buildLimitedAvailability(_ part: [ObserverRule]) -> [ObserverRule] {
        part
    }
}
