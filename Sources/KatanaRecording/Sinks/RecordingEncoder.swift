import Foundation
import Katana

/// Turns recorded items into the lines of a recording file (``RecordingLines``), keeping the state
/// after the last line it made, so that a line carries only the changes from it, with the whole
/// state every `snapshotInterval` items. Used by one thread at a time.
final class RecordingEncoder<S: State> {
    private let snapshotInterval: Int
    /// The state after the last line, encoded; nil before the header and after a gap.
    private var previousState: JSONValue?
    /// Items since the last whole state.
    private var sinceSnapshot = 0
    /// Whether `S` is `Encodable`.
    private let statesEncode = S.self is any Encodable.Type
    /// The length of the last state encoded, as JSON text (0 when states are not encoded): what a
    /// stream counts for the state each waiting item holds. Measured with the header, on a line
    /// that carries the whole state, and every `measureInterval` items between.
    private(set) var stateBytes = 0
    /// How many bytes the state grew by per position over its last measures (0 when it did not
    /// grow): what a stream adds for each item further on than the last one encoded, so that a
    /// burst on a growing state is counted as the larger states it holds.
    private(set) var stateGrowth = 0.0
    /// The position of the last item encoded.
    private(set) var lastPosition: UInt64 = 0
    /// Items since the state was last measured.
    private var sinceMeasured = 0
    /// The last measures: the position of the item, and the state's length after it.
    private var measures: [(position: UInt64, bytes: Int)] = []
    /// Items between measures of the state: measuring walks it, so not on every item.
    private static var measureInterval: Int { 16 }

    init(snapshotInterval: Int) {
        self.snapshotInterval = max(1, snapshotInterval)
    }

    /// The header line, for a store of `stateType` whose state before the first item is `initialState`.
    func header(stateType: String, initialState: S, started: Date) -> Data {
        let state = encodedState(initialState)
        measures = []
        measure(state)
        previousState = state
        sinceSnapshot = 0
        let header = RecordingLines.Header(
            format: RecordingLines.format, version: RecordingLines.version, stateType: stateType,
            stateEncoded: statesEncode, started: started.timeIntervalSince1970, initialState: state
        )
        return line(header)
    }

    /// The line of one item.
    func entry(_ recorded: RecordedItem<S>) -> Data {
        let (outcome, error) = recorded.outcome.written
        lastPosition = recorded.position
        var entry = RecordingLines.Entry(
            position: recorded.position, sequence: recorded.sequence, time: recorded.time.timeIntervalSince1970,
            origin: RecordingLines.Origin(recorded.origin), type: recorded.typeName, kind: recorded.kind,
            replayable: false, outcome: outcome, error: error
        )
        entry.correlation = recorded.correlation
        if let encodable = recorded.item as? any Encodable, let item = try? jsonValue(encodable) {
            entry.item = item
            entry.replayable = true
        } else {
            entry.rendering = Self.rendering(of: recorded.item)
        }
        if let state = encodedState(recorded.stateAfter) {
            sinceSnapshot += 1
            if let previousState, sinceSnapshot < snapshotInterval {
                // No changes: no field (the state after it is the state before it).
                let changes = JSONPatch(from: previousState, to: state)
                entry.changes = changes.operations.isEmpty ? nil : changes
            } else {
                entry.state = state
                sinceSnapshot = 0
            }
            previousState = state
            sinceMeasured += 1
            if entry.state != nil || sinceMeasured >= Self.measureInterval {
                measure(state)
            }
        }
        return line(entry)
    }

    /// The line of a side effect's end.
    func end(_ end: RecordedEnd) -> Data {
        line(RecordingLines.End(end))
    }

    /// The line that says `count` items were dropped; the next item carries its whole state.
    func gap(_ count: UInt64) -> Data {
        previousState = nil
        return line(RecordingLines.Gap(gap: count))
    }

    /// The item drawn on one line (as ``StateDiff`` draws values, its lines joined).
    static func rendering(of item: any Dispatchable) -> String {
        StateDiff.render(item)
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    /// Notes the length of `state`, and how fast it grows: the lesser of its growth over the last
    /// 64 measures (about a thousand items) and over the last one, once there are three, so that a
    /// state that grew once and stopped counts as not growing. A state that grew by less than an
    /// eighth over the 64 counts as not growing either: its size wavers, or grows too slowly to
    /// matter, and a small growth counted over a burst of 100,000 items would drop most of it.
    private func measure(_ state: JSONValue?) {
        stateBytes = state?.encodedLength ?? 0
        sinceMeasured = 0
        measures.append((lastPosition, stateBytes))
        if measures.count > 64 {
            measures.removeFirst()
        }
        stateGrowth = 0
        guard measures.count >= 3 else { return }
        let (first, previous, last) = (measures[0], measures[measures.count - 2], measures[measures.count - 1])
        guard last.position > previous.position, previous.position > first.position, (last.bytes - first.bytes) * 8 >= last.bytes else {
            return
        }
        let overall = Double(last.bytes - first.bytes) / Double(last.position - first.position)
        let lately = Double(last.bytes - previous.bytes) / Double(last.position - previous.position)
        stateGrowth = max(0, min(overall, lately))
    }

    private func encodedState(_ state: S) -> JSONValue? {
        guard statesEncode, let encodable = state as? any Encodable else { return nil }
        return try? jsonValue(encodable)
    }

    private func jsonValue(_ value: any Encodable) throws -> JSONValue {
        try JSONValueEncoder.encode(value)
    }

    private func line(_ value: some Encodable) -> Data {
        // Every line type here is plain data (strings, integers, finite numbers), which always
        // encodes.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        JSONWriter.write((try? JSONValueEncoder.encode(value)) ?? .object([:]), into: &bytes)
        bytes.append(0x0A)
        return Data(bytes)
    }
}
