import Foundation
import Katana

/// The lines of a recording file, as they are encoded: a header, then one line per item (or per
/// gap, where a file sink had to drop items). One JSON object per line.
enum RecordingLines {
    /// The format's name, in every header.
    static let format = "katana-recording"
    /// The version this package writes: 2 added the lines of side effects' ends.
    static let version = 2
    /// The versions this package reads.
    static let readableVersions = 1 ... 2

    /// The first line: what the file is, and the state before the first item.
    struct Header: Codable, Equatable {
        var format: String
        var version: Int
        /// The recorded store's state type, fully qualified.
        var stateType: String
        /// Whether the states are in the file (the state type is `Encodable`).
        var stateEncoded: Bool
        /// When recording started, in seconds since 1970.
        var started: Double
        /// The state before the first item in the file.
        var initialState: JSONValue?
    }

    /// Where an item came from, as written.
    struct Origin: Codable, Equatable {
        /// `outside`, `sideEffect` or `storeWork`.
        var from: String
        var type: String?
        var sequence: UInt64?
        var label: String?

        init(_ origin: DispatchOrigin) {
            switch origin {
            case .outside:
                from = "outside"
            case let .sideEffect(type, sequence):
                from = "sideEffect"
                self.type = type
                self.sequence = sequence
            case .storeWork(let label):
                from = "storeWork"
                self.label = label
            }
        }

        /// The origin it stands for; nil for one this version does not know.
        var origin: DispatchOrigin? {
            switch from {
            case "outside": .outside
            case "sideEffect": type.map { .sideEffect(type: $0, sequence: sequence ?? 0) }
            case "storeWork": .storeWork(label: label)
            default: nil
            }
        }
    }

    /// One item.
    struct Entry: Codable, Equatable {
        var position: UInt64
        var sequence: UInt64
        var time: Double
        var origin: Origin
        /// The item's type, fully qualified.
        var type: String
        var kind: RecordedItemKind
        /// The item's encoding, when it is `Encodable`.
        var item: JSONValue?
        /// The item drawn on one line, when it is not `Encodable` (or failed to encode).
        var rendering: String?
        /// False when the item cannot be replayed (it has no encoding).
        var replayable: Bool
        /// `handled`, `blocked` or `rejected`.
        var outcome: String
        /// A rejection's error, described.
        var error: String?
        /// The whole state after the item (every so many items, and after a gap).
        var state: JSONValue?
        /// The changes from the state after the previous item to the state after this one (none
        /// when neither this nor ``state`` is there: the state did not change).
        var changes: JSONPatch?
        /// The request the item was dispatched for, as the recorder's correlation function named
        /// it; absent when none was named (and in recordings made before it was written).
        var correlation: String?
    }

    /// How a side effect ended (version 2 on): `end` is its item's sequence.
    struct End: Codable, Equatable {
        var end: UInt64
        /// The side effect's type, fully qualified.
        var type: String
        var time: Double
        /// `succeeded`, `failed` or `cancelled`.
        var outcome: String
        /// A failure's error, described.
        var error: String?
        /// What cancelled it: `promise`, `id`, `latestWins` or `shutdown`.
        var cancelledBy: String?
        /// Seconds its body ran (0 when it never began).
        var duration: Double
        /// Present, and false, only when its body never began.
        var began: Bool?

        init(_ recorded: RecordedEnd) {
            end = recorded.sequence
            type = recorded.typeName
            time = recorded.time.timeIntervalSince1970
            outcome = recorded.outcome.name
            switch recorded.outcome {
            case .succeeded: break
            case .failed(let description): error = description
            case .cancelled(let canceller): cancelledBy = canceller.rawValue
            }
            duration = recorded.seconds
            began = recorded.began ? nil : false
        }
    }

    /// Items a file sink dropped because its writer fell behind: the state chain starts again
    /// with a whole state after it.
    struct Gap: Codable, Equatable {
        /// How many items were dropped.
        var gap: UInt64
    }
}

extension RecordedOutcome {
    /// The outcome's name and error, as written.
    var written: (outcome: String, error: String?) {
        switch self {
        case .handled: ("handled", nil)
        case .blocked: ("blocked", nil)
        case .rejected(let error): ("rejected", error)
        }
    }
}
