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
    /// The item's encoding as JSON text, when it had one: one allocation per item, where the
    /// value's tree would take several (``item`` reads it back).
    let itemText: [UInt8]?
    /// The item drawn on one line, when it had no encoding.
    let rendering: String?
    /// What it changed in the state; nil when the state before it is not known.
    let changes: StateChanges?
    /// Whether the state after it is known (states recorded, and no gap without a whole state since).
    let stateKnown: Bool

    /// The item read from `entry`, with the names it shares with others taken from `names`, so
    /// that 100,000 items of one type keep one copy of its name.
    init(_ entry: RecordingEntry, changes: StateChanges?, names: inout NameTable) {
        position = entry.position
        sequence = entry.sequence
        time = entry.time.timeIntervalSince1970
        typeName = names.shared(entry.typeName)
        kind = entry.kind
        origin = switch entry.origin {
        case .outside: .outside
        case let .sideEffect(type, sequence): .sideEffect(type: names.shared(type), sequence: sequence)
        case .storeWork(let label): .storeWork(label: label.map { names.shared($0) })
        }
        outcome = entry.outcome
        itemText = entry.encoding?.jsonText
        rendering = entry.rendering
        self.changes = changes
        stateKnown = entry.stateAfter != nil
    }

    /// How long a preview may be, in characters.
    static let previewLength = 160

    /// The item's encoding, when it had one.
    var item: JSONValue? {
        itemText.flatMap { try? JSONValue(parsing: $0) }
    }

    /// The item on one line, cut short, for the timeline and its search.
    var preview: String {
        let text = itemText.map { String(decoding: $0, as: UTF8.self) } ?? rendering ?? ""
        guard text.count > Self.previewLength else { return text }
        return String(text.prefix(Self.previewLength - 1)) + "…"
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

/// One copy of each name the items of a history share (type names, labels).
struct NameTable: Sendable {
    private var names: Set<String> = []

    /// `name`, as the copy kept the first time it was seen.
    mutating func shared(_ name: String) -> String {
        if let kept = names.firstIndex(of: name) {
            return names[kept]
        }
        names.insert(name)
        return name
    }
}
