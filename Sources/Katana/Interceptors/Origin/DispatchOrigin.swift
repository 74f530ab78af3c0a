/// Where a dispatched item comes from: code outside the store, or the store's own work (a side
/// effect, or other work such as an interceptor, which may give itself a label).
///
/// An interceptor reads it for the item it is looking at through ``InterceptedItem/current``.
public enum DispatchOrigin: Sendable, Hashable, CustomStringConvertible {
    /// Dispatched from outside the store's work: the app called `dispatch` on the store.
    case outside
    /// Dispatched by a side effect through its context, while it ran or later: the side effect's
    /// type (fully qualified, as `String(reflecting:)` writes it) and its place in dispatch order
    /// (its ``InterceptedItem/sequence``).
    case sideEffect(type: String, sequence: UInt64)
    /// Dispatched by the store's other work: an interceptor, the dependencies, or work of any kind
    /// that dispatches through a context it labelled with ``AnySideEffectContext/labelled(_:)``
    /// (nil when it gave no label).
    case storeWork(label: String?)

    /// A short description: `outside`, `side effect App.Fetch #12`, `store work "label"`.
    public var description: String {
        switch self {
        case .outside:
            "outside"
        case let .sideEffect(type, sequence):
            "side effect \(type) #\(sequence)"
        case .storeWork(let label?):
            "store work \"\(label)\""
        case .storeWork(nil):
            "store work"
        }
    }
}
