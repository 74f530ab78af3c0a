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
    /// The request it was dispatched for, as the recorder named it; nil when it named none. Not
    /// shared through the name table: a live store's requests never repeat after a while, and the
    /// table would keep every one.
    let correlation: String?
    /// Whether the state after it is known (states recorded, and no gap without a whole state since).
    let stateKnown: Bool
    /// About how many bytes it takes in memory: its fields, its encoding or drawing, what it
    /// changed, and its entry in the history's index by sequence (its names are shared, so not
    /// counted). What the history counts against its bound.
    let byteCount: Int

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
        correlation = entry.correlation
        stateKnown = entry.stateAfter != nil
        let textBytes = itemText.map { Self.allocation($0.count) } ?? 0
        byteCount = MemoryLayout<InspectedItem>.stride + Self.indexEntryBytes + textBytes + Self.stringBytes(rendering)
            + Self.stringBytes(correlation) + (changes?.estimatedByteCount ?? 0)
    }

    /// What a string takes beyond its place in the item: nothing up to 15 UTF-8 bytes, which are
    /// kept inline.
    private static func stringBytes(_ text: String?) -> Int {
        text.map { $0.utf8.count > 15 ? allocation($0.utf8.count + 1) : 0 } ?? 0
    }

    /// What an item's entry in the history's index by sequence takes (two integers in a
    /// dictionary's buckets, a quarter of which are empty).
    private static let indexEntryBytes = 24

    /// What the allocator takes for an array or string of `count` bytes: its header, rounded up
    /// to 16 bytes.
    private static func allocation(_ count: Int) -> Int {
        (32 + count + 8 + 15) / 16 * 16
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
