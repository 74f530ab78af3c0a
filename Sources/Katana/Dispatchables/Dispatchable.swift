/// Something that can be dispatched to a store: a state updater or a side effect.
///
/// The protocol only marks the category; the store decides what to do with an item by checking
/// whether it is an ``AnyStateUpdater`` or an ``AnySideEffect``.
public protocol Dispatchable: Sendable, CustomDebugStringConvertible {}

extension Dispatchable {
    /// The fully qualified type name, used by loggers and error messages.
    public var debugDescription: String {
        String(reflecting: type(of: self))
    }
}

/// The fully qualified name of an item's dynamic type, for error messages.
@usableFromInline
func typeName(of item: any Dispatchable) -> String {
    String(reflecting: type(of: item))
}

/// The fully qualified name of a type, for error messages.
@usableFromInline
func typeName(_ type: Any.Type) -> String {
    String(reflecting: type)
}
