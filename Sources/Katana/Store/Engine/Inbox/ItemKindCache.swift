/// What the store has learned about each dispatched type: how to handle its items.
///
/// Classifying an item takes several protocol casts; a store sees the same few types over and over,
/// so each type is classified once, and the last type asked about is remembered in front of the
/// dictionary. Owned by the drainer (see ``Drainer``); a class, so that the drainer consults it
/// without an exclusive access to a value of its own per item.
final class ItemKindCache {
    /// What the side effects of the store run with (their runners hold it).
    private let context: any AnySideEffectContext
    private var kinds: [ObjectIdentifier: ItemKind] = [:]
    private var lastType: ObjectIdentifier?
    private var lastKind = ItemKind.unsupported

    /// A cache for a store whose side effects run with `context`.
    init(context: any AnySideEffectContext) {
        self.context = context
    }

    /// How items of `item`'s dynamic type are handled in a store whose state is `S`.
    func kind<S: State>(of item: any Dispatchable, storeState: S.Type) -> ItemKind {
        let type = ObjectIdentifier(Swift.type(of: item))
        if type == lastType {
            return lastKind
        }
        let kind: ItemKind
        if let cached = kinds[type] {
            kind = cached
        } else {
            kind = ItemKind.classify(item, storeState: S.self, context: context)
            kinds[type] = kind
        }
        lastType = type
        lastKind = kind
        return kind
    }
}
