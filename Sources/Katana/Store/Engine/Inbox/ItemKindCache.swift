/// What the store has learned about each dispatched type: how to handle its items.
///
/// Classifying an item takes several protocol casts; a store sees the same few types over and over,
/// so each type is classified once, and the last type asked about is remembered in front of the
/// dictionary. Owned by the drainer (see ``Drainer``); a class, so that the drainer consults it
/// without an exclusive access to a value of its own per item.
final class ItemKindCache {
    /// What the side effects of the store run with (their runners hold it).
    private let context: any AnySideEffectContext
    private var kinds: [ObjectIdentifier: (kind: ItemKind, isValueType: Bool)] = [:]
    private var lastType: ObjectIdentifier?
    private var lastKind = ItemKind.unsupported
    /// The last type asked about when it is a value type: an item whose existential holds that
    /// type is of that dynamic type, so it is recognised without the runtime's dynamic-type look-up.
    private var lastValueType: ObjectIdentifier?

    /// A cache for a store whose side effects run with `context`.
    init(context: any AnySideEffectContext) {
        self.context = context
    }

    /// How items of `item`'s dynamic type are handled in a store whose state is `S`.
    func kind<S: State>(of item: any Dispatchable, storeState: S.Type) -> ItemKind {
        if let lastValueType, Self.storedType(of: item) == lastValueType {
            return lastKind
        }
        let type = ObjectIdentifier(Swift.type(of: item))
        if type == lastType {
            return lastKind
        }
        let entry: (kind: ItemKind, isValueType: Bool)
        if let cached = kinds[type] {
            entry = cached
        } else {
            entry = (ItemKind.classify(item, storeState: S.self, context: context), !(Swift.type(of: item) is AnyClass))
            kinds[type] = entry
        }
        lastType = type
        lastKind = entry.kind
        lastValueType = entry.isValueType ? type : nil
        return entry.kind
    }

    /// The type an existential holds as it was stored (for a class, possibly a superclass of the
    /// item's dynamic type; for a value type, its dynamic type), read from the existential itself.
    private static func storedType(of item: any Dispatchable) -> ObjectIdentifier {
        func open<Item: Dispatchable>(_: Item) -> ObjectIdentifier {
            ObjectIdentifier(Item.self)
        }
        return open(item)
    }
}
