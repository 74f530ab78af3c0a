import Katana

/// Dispatches items after the store handled an item of exactly the type `Item` (subtypes and
/// other conformers do not match), once the item has been handled.
public struct OnDispatch<Item: Dispatchable>: ObserverRuleSet {
    private let rule: ObserverRule

    /// Dispatches an instance of each type whose `init?(dispatchedItem:prevState:currentState:)`
    /// returns one (Katana's form).
    public init(_ itemType: Item.Type, dispatch types: any DispatchObserverDispatchable.Type...) {
        let types = types
        let dispatchRule = DispatchRule(itemType: ObjectIdentifier(Item.self), needsStates: true) { item, previous, current in
            guard let previous, let current else { return [] }
            return instantiate(types) { $0.init(dispatchedItem: item, prevState: previous, currentState: current) }
        }
        rule = ObserverRule(
            trigger: .dispatch(dispatchRule),
            summary: "OnDispatch(\(Item.self), dispatch: \(types.map { "\($0)" }.joined(separator: ", ")))"
        )
    }

    /// Dispatches the item `make` returns for the handled item, if any.
    public init(_ itemType: Item.Type, _ make: @escaping @Sendable (Item) -> (any Dispatchable)?) {
        let dispatchRule = DispatchRule(itemType: ObjectIdentifier(Item.self), needsStates: false) { item, _, _ in
            guard let item = item as? Item else { return [] }
            return make(item).map { [$0] } ?? []
        }
        rule = ObserverRule(trigger: .dispatch(dispatchRule), summary: "OnDispatch(\(Item.self)) { ... }")
    }

    /// This rule.
    public var rules: [ObserverRule] {
        [rule]
    }
}
