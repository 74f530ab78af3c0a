import Foundation
import Katana
import KatanaRecording

/// One recorded item as the inspector keeps it: what the timeline shows, the item itself, and what
/// it changed in the state (the states themselves are rebuilt when asked for, see
/// ``InspectorHistory``).
struct InspectedItem: Sendable {
    let position: UInt64
    let sequence: UInt64
    /// Seconds since 1970.
    let time: Double
    let typeName: String
    let kind: RecordedItemKind
    let origin: DispatchOrigin
    let outcome: RecordedOutcome
    /// The item's encoding, when it had one.
    let item: JSONValue?
    /// The item drawn on one line, when it had no encoding.
    let rendering: String?
    /// What it changed in the state; nil when the state before it is not known.
    let changes: StateChanges?
    /// Whether the state after it is known (states recorded, and no gap without a whole state since).
    let stateKnown: Bool
    /// The item on one line, cut short, for the timeline and its search.
    let preview: String

    init(_ entry: RecordingEntry, changes: StateChanges?) {
        position = entry.position
        sequence = entry.sequence
        time = entry.time.timeIntervalSince1970
        typeName = entry.typeName
        kind = entry.kind
        origin = entry.origin
        outcome = entry.outcome
        item = entry.encoding
        rendering = entry.rendering
        self.changes = changes
        stateKnown = entry.stateAfter != nil
        preview = Self.preview(of: entry)
    }

    /// How long a preview may be, in characters.
    static let previewLength = 160

    private static func preview(of entry: RecordingEntry) -> String {
        let text = entry.encoding.map { String(decoding: $0.jsonText, as: UTF8.self) } ?? entry.rendering ?? ""
        guard text.count > previewLength else { return text }
        return String(text.prefix(previewLength - 1)) + "…"
    }

    /// The origin's parts, as the API writes them: where from, which side effect or label, and the
    /// dispatching side effect's sequence.
    var originParts: (from: String, name: String?, sequence: UInt64) {
        switch origin {
        case .outside: ("outside", nil, 0)
        case let .sideEffect(type, sequence): ("sideEffect", type, sequence)
        case .storeWork(let label): ("storeWork", label, 0)
        }
    }

    /// The outcome's name and error, as the API writes them.
    var outcomeParts: (name: String, error: String?) {
        switch outcome {
        case .handled: ("handled", nil)
        case .blocked: ("blocked", nil)
        case .rejected(let error): ("rejected", error)
        }
    }
}
