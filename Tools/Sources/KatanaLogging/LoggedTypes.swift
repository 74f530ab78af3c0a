import class Foundation.NSLock
import Katana
import KatanaToolsSupport

/// The name and kind of each item type a ``StoreLogger`` has written a line about, worked out once:
/// a type's fully qualified name and its protocol checks cost more than the rest of a line.
///
/// Lock: `lock` guards `entries`, and is held for nothing but reading or adding one entry.
// @unchecked: `entries` is only touched with `lock` held.
final class LoggedTypes: @unchecked Sendable {
    private let lock = NSLock()
    /// What is known of each type seen so far. Guarded by `lock`.
    private var entries: [ObjectIdentifier: Entry] = [:]

    /// An item type's name (as `String(reflecting:)` writes it) and kind.
    struct Entry {
        let name: String
        let kind: ItemKind
    }

    /// The name and kind of `item`'s type.
    func entry(for item: any Dispatchable) -> Entry {
        let key = ObjectIdentifier(type(of: item))
        if let known = lock.withLock({ entries[key] }) {
            return known
        }
        // Worked out outside the lock; two threads that meet a new type at once both do, harmlessly.
        let entry = Entry(name: String(reflecting: type(of: item)), kind: ItemKind(of: item))
        lock.withLock { entries[key] = entry }
        return entry
    }
}
