import Foundation
import Katana

/// Reads a recording one line at a time, whatever its state type: for tools that show recordings
/// (`katana-inspector`) or follow one as it is written. ``Recording`` reads a whole file with it.
///
/// ```swift
/// var reader = try RecordingReader(header: firstLine, source: "session.jsonl")
/// for (index, line) in otherLines.enumerated() {
///     switch try reader.read(line, number: index + 2) {
///     case let .entry(entry, changes): show(entry, changes)
///     case .gap(let gap): showGap(gap)
///     case .end(let end): showEnd(end)
///     }
/// }
/// ```
public struct RecordingReader: Sendable {
    /// What was read: the file's path, or a name given with the data.
    public let source: String
    /// The recording's first line.
    public let header: RecordingHeader
    /// The state after the last line read, encoded; nil when states are not recorded, and after a
    /// gap until a line carries a whole state again.
    public private(set) var state: JSONValue?
    /// Items read so far.
    public private(set) var entryCount = 0

    /// Reads the header line (line 1) of the recording named `source`; throws
    /// ``RecordingError/notARecording(source:firstLine:)`` or
    /// ``RecordingError/unsupportedVersion(source:found:supported:)``.
    public init(header line: Data, source: String) throws {
        guard let header = try? JSONDecoder().decode(RecordingLines.Header.self, from: line),
              header.format == RecordingLines.format
        else {
            throw RecordingError.notARecording(source: source, firstLine: String(decoding: line, as: UTF8.self))
        }
        guard RecordingLines.readableVersions.contains(header.version) else {
            throw RecordingError.unsupportedVersion(source: source, found: header.version, supported: RecordingLines.version)
        }
        self.source = source
        self.header = RecordingHeader(
            stateType: header.stateType, started: Date(timeIntervalSince1970: header.started),
            statesRecorded: header.stateEncoded, initialState: header.initialState
        )
        state = header.initialState
    }

    /// Reads line `number` (the header is line 1): an item with the changes it made to the state,
    /// a side effect's end, or a gap. Throws ``RecordingError/malformedLine(source:line:reason:)`` for a line that is
    /// not one of a recording's, or whose changes do not fit the state before it.
    public mutating func read(_ line: Data, number: Int) throws -> RecordingLine {
        let entry: RecordingLines.Entry
        do {
            switch try RecordingLines.line(from: JSONParser.parse(line)) {
            case .entry(let read):
                entry = read
            case .end(let end):
                return .end(end)
            case .gap(let dropped):
                state = nil
                return .gap(RecordingGap(line: number, dropped: dropped, entriesBefore: entryCount))
            }
        } catch let problem as RecordingLines.Problem {
            throw RecordingError.malformedLine(source: source, line: number, reason: problem.reason)
        } catch {
            throw RecordingError.malformedLine(source: source, line: number, reason: "\(error)")
        }
        let previous = state
        var changes: StateChanges?
        if let whole = entry.state {
            state = whole
            changes = previous.map { StateChanges(from: $0, to: whole) }
        } else if let patch = entry.changes {
            guard let previous else {
                throw RecordingError.malformedLine(source: source, line: number, reason: "it has changes to a state, but no state comes before it")
            }
            do {
                state = try patch.applied(to: previous)
            } catch {
                throw RecordingError.malformedLine(source: source, line: number, reason: "\(error)")
            }
            changes = StateChanges(patch)
        } else if previous != nil {
            changes = StateChanges(JSONPatch(operations: []))
        }
        guard let origin = entry.origin.origin else {
            throw RecordingError.malformedLine(source: source, line: number, reason: "its origin \"\(entry.origin.from)\" is not one this version knows")
        }
        let outcome: RecordedOutcome = switch entry.outcome {
        case "handled": .handled
        case "blocked": .blocked
        default: .rejected(entry.error ?? "")
        }
        entryCount += 1
        let read = RecordingEntry(
            position: entry.position, sequence: entry.sequence, time: Date(timeIntervalSince1970: entry.time),
            origin: origin, typeName: entry.type, kind: entry.kind, outcome: outcome,
            encoding: entry.replayable ? entry.item : nil, rendering: entry.rendering, stateAfter: state, line: number,
            correlation: entry.correlation
        )
        return .entry(read, changes: changes)
    }
}

/// A recording's first line: what store it is of, and its state before the first item.
public struct RecordingHeader: Sendable, Equatable {
    /// The recorded store's state type, fully qualified.
    public let stateType: String
    /// When recording started.
    public let started: Date
    /// Whether the states are in the recording (the state type was `Encodable`).
    public let statesRecorded: Bool
    /// The state before the first item, encoded.
    public let initialState: JSONValue?
}

/// One line after a recording's header, as ``RecordingReader`` reads it.
public enum RecordingLine: Sendable {
    /// An item, and what it changed in the state: nil when the state before it is not known (states
    /// are not recorded, or it follows a gap).
    case entry(RecordingEntry, changes: StateChanges?)
    /// Items dropped by a file's writer that fell behind; the state is unknown until a line
    /// carries a whole state again.
    case gap(RecordingGap)
    /// How a side effect ended: it names the side effect by its item's sequence, and may come
    /// before that item's line (format version 2 on).
    case end(RecordedEnd)
}
