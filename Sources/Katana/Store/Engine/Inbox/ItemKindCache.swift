/// What the store has learned about each dispatched type: how to handle its items.
///
/// Classifying an item takes several protocol casts; a store sees the same few types over and over,
/// so each type is classified once, and the last type asked about is remembered in front of the
/// dictionary. Owned by the drainer (see ``Drainer``); a class, so that the drainer consults it
/// without an exclusive access to a value of its own per item.
final class ItemKindCache {
    /// What the side effects of the store run with (their runners hold it).
    private let context: any AnySideEffectContext
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var lastType: ObjectIdentifier?
    private var last = Entry(kind: .unsupported, isValueType: false)
    /// The last type asked about when it is a value type: an item whose existential holds that
    /// type is of that dynamic type, so it is recognised without the runtime's dynamic-type look-up.
    private var lastValueType: ObjectIdentifier?

    /// What the cache knows about one type. A class, so that a caller reads the kind in place,
    /// borrowed from the cache, without copying it (and retaining what it holds) per item.
    final class Entry {
        let kind: ItemKind
        /// The kind's updater, when the type is a state updater, unretained (``kind`` holds it):
        /// lent to a caller without taking it out of the enum, which copies it.
        let updater: Unmanaged<ItemKind.Updater>?
        /// The kind's runner, when the type is a synchronous side effect: read without taking it out
        /// of the enum, whose copy costs a retain and a release per item on a closure the side
        /// effects' workers retain too.
        let sideEffect: ItemKind.SideEffectRunner?
        let isValueType: Bool

        init(kind: ItemKind, isValueType: Bool) {
            self.kind = kind
            if case .updater(let updater) = kind {
                self.updater = Unsafe.unretained(updater)
            } else {
                updater = nil
            }
            if case .sideEffect(let runner) = kind {
                sideEffect = runner
            } else {
                sideEffect = nil
            }
            self.isValueType = isValueType
        }
    }

    /// A cache for a store whose side effects run with `context`.
    init(context: any AnySideEffectContext) {
        self.context = context
    }

    /// How items of `item`'s dynamic type are handled in a store whose state is `S`.
    func kind<S: State>(of item: any Dispatchable, storeState: S.Type) -> ItemKind {
        withEntry(of: item, storeState: S.self) { $0.kind }
    }

    /// Calls `body` with what the cache knows about `item`'s dynamic type, read in place: the
    /// cache keeps every entry for as long as it lives.
    @inline(__always)
    func withEntry<S: State, Result>(of item: any Dispatchable, storeState: S.Type, _ body: (Entry) -> Result) -> Result {
        Unsafe.borrow(unretainedEntry(of: item, storeState: S.self), body)
    }

    /// What the cache knows about `item`'s dynamic type, unretained: the cache keeps every entry
    /// for as long as it lives.
    @inline(__always)
    func unretainedEntry<S: State>(of item: any Dispatchable, storeState: S.Type) -> Unmanaged<Entry> {
        lastEntry(for: item) ?? entry(of: item, storeState: S.self)
    }

    /// The last entry, when `item` is of the last value type asked about: the common case, which
    /// needs nothing of the store's state type.
    @inline(__always)
    private func lastEntry(for item: any Dispatchable) -> Unmanaged<Entry>? {
        guard let lastValueType, Unsafe.storedType(of: item) == lastValueType else { return nil }
        return Unsafe.unretained(last)
    }

    private func entry<S: State>(of item: any Dispatchable, storeState: S.Type) -> Unmanaged<Entry> {
        let type = ObjectIdentifier(Swift.type(of: item))
        if type == lastType {
            return Unsafe.unretained(last)
        }
        let entry: Entry
        if let cached = entries[type] {
            entry = cached
        } else {
            entry = Entry(
                kind: ItemKind.classify(item, storeState: S.self, context: context),
                isValueType: !(Swift.type(of: item) is AnyClass)
            )
            entries[type] = entry
        }
        lastType = type
        last = entry
        lastValueType = entry.isValueType ? type : nil
        return Unsafe.unretained(entry)
    }
}
