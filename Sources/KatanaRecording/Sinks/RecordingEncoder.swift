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

    init(snapshotInterval: Int) {
        self.snapshotInterval = max(1, snapshotInterval)
    }

    /// The header line, for a store of `stateType` whose state before the first item is `initialState`.
    func header(stateType: String, initialState: S, started: Date) -> Data {
        let state = encodedState(initialState)
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
        var entry = RecordingLines.Entry(
            position: recorded.position, sequence: recorded.sequence, time: recorded.time.timeIntervalSince1970,
            origin: RecordingLines.Origin(recorded.origin), type: recorded.typeName, kind: recorded.kind,
            replayable: false, outcome: outcome, error: error
        )
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
