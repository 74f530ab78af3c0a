import Katana

/// One item a ``TestStore``'s store handled, with the state before and after it.
public struct HandledItem<S: State>: Sendable {
    /// Whether the test sent it (``TestStore/send(_:assert:fileID:filePath:line:column:)``), or the
    /// store's own work dispatched it (a side effect, an observer rule, a legacy action's side
    /// effect, an interceptor): a received item.
    public enum Origin: Sendable, Equatable {
        case sent
        case received
    }

    /// How handling it went.
    public enum Outcome: Sendable {
        /// It is being handled.
        case inProgress
        /// It was handled: an updater applied, a side effect's body returned (a synchronous one)
        /// or its task started (an async one).
        case handled
        /// An interceptor returned without passing it on.
        case blocked
        /// It was rejected with this error (by an interceptor, or as bad input).
        case rejected(String)
    }

    /// The item.
    public let item: any Dispatchable
    /// Who dispatched it.
    public let origin: Origin
    /// Its place among the items the store handled, from 0.
    public let index: Int
    /// The state when the store began to handle it.
    public let stateBefore: S
    /// The state when the store had handled it (for an async side effect: when its task started);
    /// nil while it is in progress.
    public internal(set) var stateAfter: S?
    /// How handling it went.
    public internal(set) var outcome: Outcome

    /// Whether it is a side effect (its state changes come from the updaters it dispatches).
    public var isSideEffect: Bool {
        item is any AnySideEffect
    }

    /// The item's type, fully qualified, for messages.
    var typeName: String {
        String(reflecting: type(of: item))
    }
}
