import Foundation
import Katana

/// One item a store handled, as a ``StoreRecorder`` saw it: kept as values (the item and the state
/// after it), and encoded only when written out, away from the store's queue.
public struct RecordedItem<S: State>: Sendable {
    /// What kind of item it is.
    public typealias Kind = RecordedItemKind
    /// How handling it went.
    public typealias Outcome = RecordedOutcome

    /// Its place in the recording, counted from 1 in the order the recorder finished with items.
    public let position: UInt64
    /// Its place in dispatch order (``InterceptedItem/sequence``): what the origin of the items a
    /// side effect dispatched refers to.
    public let sequence: UInt64
    /// When the recorder saw it.
    public let time: Date
    /// Where it came from.
    public let origin: DispatchOrigin
    /// The item itself.
    public let item: any Dispatchable
    /// Its kind.
    public let kind: Kind
    /// How handling it went.
    public let outcome: Outcome
    /// The store's state once the item was handled (for a side effect, as it was when the side
    /// effect's body returned or its task started).
    public let stateAfter: S
    /// The request (or other work) it was dispatched for, as the recorder's correlation function
    /// named it from the item's dispatch context; nil when there is no function or no context.
    public let correlation: String?

    /// An entry for `item`, dispatched for the work `correlation` names (nil: none known).
    @inlinable
    public init(
        position: UInt64, sequence: UInt64, time: Date, origin: DispatchOrigin,
        item: any Dispatchable, kind: Kind, outcome: Outcome, stateAfter: S, correlation: String? = nil
    ) {
        self.position = position
        self.sequence = sequence
        self.time = time
        self.origin = origin
        self.item = item
        self.kind = kind
        self.outcome = outcome
        self.stateAfter = stateAfter
        self.correlation = correlation
    }

    /// The item's type, fully qualified (as `String(reflecting:)` writes it).
    public var typeName: String {
        String(reflecting: type(of: item))
    }
}

/// What kind of item a recorded item is, which says whether a replay dispatches it.
public enum RecordedItemKind: String, Sendable, Codable {
    /// A state updater (a 2.x `Action` included): replayed.
    case stateUpdater = "updater"
    /// A side effect of any form: not replayed (what it dispatched is recorded on its own).
    case sideEffect = "sideEffect"
    /// Neither (the store rejects it): not replayed.
    case other = "other"
}

/// How handling a recorded item went, as the interceptors saw it.
public enum RecordedOutcome: Sendable, Hashable {
    /// It got past every interceptor and the store handled it.
    case handled
    /// An interceptor did not pass it on.
    case blocked
    /// An interceptor threw: the error's description.
    case rejected(String)
}
