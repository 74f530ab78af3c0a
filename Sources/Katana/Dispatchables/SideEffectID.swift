/// The name under which async side effects are cancelled together (see
/// ``AsyncSideEffect/cancellationID`` and `cancelSideEffects(id:)`): any hashable, sendable value,
/// or a string literal.
///
/// ```swift
/// struct Search: AsyncSideEffect {
///     var cancellationID: SideEffectID? { "search" }
///     var cancelsInFlight: Bool { true }
///     …
/// }
/// store.cancelSideEffects(id: "search")
/// ```
public struct SideEffectID: Hashable, @unchecked Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    // @unchecked: the only stored property wraps a value that `init(_:)` requires to be `Sendable`;
    // `AnyHashable` itself is not declared `Sendable`.
    private let value: AnyHashable

    /// An id made of any hashable, sendable value (an enum case, a UUID, a search field's name).
    public init<Value: Hashable & Sendable>(_ value: Value) {
        self.value = AnyHashable(value)
    }

    /// An id written as a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The wrapped value, as text.
    public var description: String {
        String(describing: value.base)
    }
}
