/// A named, reusable group of observer rules.
///
/// A group is a value: define it once (`static let sync = ObserverRules("sync") { ... }`), nest it
/// in other groups, and use it in as many stores as needed; each store runs its own copy.
public struct ObserverRules: ObserverRuleSet {
    /// The group's name, for reading and for reports.
    public let name: String
    /// The group's rules, nested groups flattened.
    public let rules: [ObserverRule]

    /// Creates a group from the rules the builder produces.
    public init(_ name: String, @ObserverRulesBuilder _ content: () -> [ObserverRule]) {
        self.name = name
        self.rules = content()
    }
}
