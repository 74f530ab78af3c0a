import class Foundation.NSLock
import Katana
import KatanaToolsSupport

/// The span name and kind of each item type a store has seen, worked out once per type: a type's
/// name costs thousands of instructions to write out, a look-up here about a hundred.
// @unchecked: `known` is only read or written with `lock` held.
final class ItemTypes: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [ObjectIdentifier: (name: String, kind: ItemKind)] = [:]

    /// The name (`AddTodo`) and kind of `item`'s type.
    func describe(_ item: any Dispatchable) -> (name: String, kind: ItemKind) {
        let key = ObjectIdentifier(type(of: item))
        lock.lock()
        if let found = known[key] {
            lock.unlock()
            return found
        }
        lock.unlock()
        let described = (name: String(describing: type(of: item)), kind: ItemKind(of: item))
        lock.lock()
        known[key] = described
        lock.unlock()
        return described
    }
}
