import Foundation
import Katana

/// How a recorded side effect ended, recorded when it ended: an item is recorded when the store
/// takes it, and a side effect's body (an async one's whole task) may end much later, or be
/// cancelled. A recording's end names its side effect by its ``sequence``, the
/// ``RecordedItem/sequence`` of the side effect's item.
public struct RecordedEnd: Sendable, Hashable {
    /// How a side effect's run went, as recorded.
    public enum Outcome: Sendable, Hashable {
        /// Its body returned.
        case succeeded
        /// Its body threw: the error's description.
        case failed(String)
        /// It was cancelled (while its body ran, or before it began).
        case cancelled(by: SideEffectEnd.Canceller)

        /// The outcome's name as written: `succeeded`, `failed` or `cancelled`.
        public var name: String {
            switch self {
            case .succeeded: "succeeded"
            case .failed: "failed"
            case .cancelled: "cancelled"
            }
        }
    }

    /// The side effect's place in dispatch order: its item's ``RecordedItem/sequence``.
    public let sequence: UInt64
    /// Its type, fully qualified.
    public let typeName: String
    /// When the recorder learnt of its end.
    public let time: Date
    /// How it went.
    public let outcome: Outcome
    /// How long its body ran; zero when it never began.
    public let duration: Duration
    /// Whether its body began (false: it was cancelled before it began).
    public let began: Bool

    /// An end, as the recorder makes it or a reader reads it.
    public init(sequence: UInt64, typeName: String, time: Date, outcome: Outcome, duration: Duration, began: Bool) {
        self.sequence = sequence
        self.typeName = typeName
        self.time = time
        self.outcome = outcome
        self.duration = duration
        self.began = began
    }

    /// The record of a store's ``SideEffectEnd``, at `time`.
    public init(_ end: SideEffectEnd, time: Date = Date()) {
        let outcome: Outcome = switch end.outcome {
        case .succeeded: .succeeded
        case .failed(let error): .failed(String(describing: error))
        case .cancelled(let canceller): .cancelled(by: canceller)
        }
        self.init(
            sequence: end.sequence, typeName: String(reflecting: type(of: end.item)), time: time,
            outcome: outcome, duration: end.duration, began: end.began
        )
    }

    /// The duration in seconds, as written (to the microsecond).
    var seconds: Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) + Double(attoseconds / 1_000_000_000_000) / 1_000_000)
    }
}
