import Katana

/// Dispatches items when one value of the state actually changes: the value at a key path is
/// compared before and after each state updater, and the rule fires only when it differs.
///
/// With a closure, only that value is read (in place, in the states before and after the update)
/// and compared on the store's queue, so the rule costs one comparison per update whatever the size
/// of the state. The Katana form (types) hands the whole states to the types it instantiates.
public struct OnChange<Root: State, Value: Equatable & Sendable>: ObserverRuleSet {
    @usableFromInline
    let rule: ObserverRule

    /// When the value changes, dispatches an instance of each type whose
    /// `init?(prevState:currentState:)` returns one (Katana's form; it receives the whole states).
    public init(of keyPath: KeyPath<Root, Value> & Sendable, dispatch types: any StateObserverDispatchable.Type...) {
        let types = types
        let stateRule = StateChangeRule(rootType: Root.self) { oldView, newView in
            guard let old = oldView.state as? Root, let new = newView.state as? Root,
                  old[keyPath: keyPath] != new[keyPath: keyPath] else { return nil }
            return { instantiate(types) { $0.init(prevState: old, currentState: new) } }
        }
        rule = ObserverRule(
            trigger: .stateChange(stateRule),
            summary: "OnChange(of: \(keyPath), dispatch: \(types.map { "\($0)" }.joined(separator: ", ")))"
        )
    }

    /// When the value changes, dispatches the item `make` returns for the old and new value, if any.
    ///
    /// Inlinable, so that the per-update work is compiled for the concrete state and value types
    /// (docs/PERFORMANCE.md, "Updaters: observer with 100 OnChange rules").
    @inlinable
    public init(of keyPath: KeyPath<Root, Value> & Sendable, _ make: @escaping @Sendable (_ old: Value, _ new: Value) -> (any Dispatchable)?) {
        // A path of stored properties has a fixed offset in the state: read there, directly.
        let offset = MemoryLayout<Root>.offset(of: keyPath)
        let stateRule = StateChangeRule(rootType: Root.self) { oldView, newView in
            let oldValue = Unsafe.load(keyPath, at: oldView.pointer, offset: offset)
            let newValue = Unsafe.load(keyPath, at: newView.pointer, offset: offset)
            guard oldValue != newValue else { return nil }
            return { make(oldValue, newValue).map { [$0] } ?? [] }
        }
        rule = ObserverRule(trigger: .stateChange(stateRule), summary: "OnChange(of: \(keyPath)) { ... }")
    }

    /// This rule.
    public var rules: [ObserverRule] {
        [rule]
    }
}
