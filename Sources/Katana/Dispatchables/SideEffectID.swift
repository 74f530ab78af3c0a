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
public final class SideEffectID: Hashable, @unchecked Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    // @unchecked: the only stored property is a constant that wraps a value `init(_:)` requires to
    // be `Sendable`; `AnyHashable` itself is not declared `Sendable`. A class, so that a side effect
    // without an id answers with a nil reference (docs/PERFORMANCE.md, "Cancellation").
    private let value: AnyHashable

    /// An id made of any hashable, sendable value (an enum case, a UUID, a search field's name).
    public init<Value: Hashable & Sendable>(_ value: Value) {
        self.value = AnyHashable(value)
    }

    /// An id written as a string literal.
    public convenience init(stringLiteral value: String) {
        self.init(value)
    }

    /// Two ids are equal when their wrapped values are.
    public static func == (lhs: SideEffectID, rhs: SideEffectID) -> Bool {
        lhs.value == rhs.value
    }

    /// Hashes the wrapped value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }

    /// The wrapped value, as text.
    public var description: String {
        String(describing: value.base)
    }
}
