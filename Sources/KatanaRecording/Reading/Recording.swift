import Foundation
import Katana

/// A recording read back from a file (or from ``FlightRecorder/recordingData(snapshotInterval:)``):
/// its header and its items, each with the state after it, checked line by line.
///
/// ```swift
/// let recording = try Recording<AppState>(contentsOf: URL(fileURLWithPath: "session.jsonl"))
/// let report = try recording.replay(into: Store<AppState, AppDependencies>(), items: [AddTodo.self, ToggleTodo.self])
/// ```
public struct Recording<S: State>: Sendable {
    /// One recorded item, as read.
    public typealias Entry = RecordingEntry
    /// Where items were dropped because the file's writer fell behind.
    public typealias Gap = RecordingGap

    /// What was read: the file's path, or the name given with the data.
    public let source: String
    /// The recorded store's state type, fully qualified.
    public let stateType: String
    /// When recording started.
    public let started: Date
    /// Whether the states are in the recording (the state type was `Encodable`).
    public let statesRecorded: Bool
    /// The state before the first item, encoded.
    public let initialState: JSONValue?
    /// The items, in the order recorded.
    public let entries: [Entry]
    /// Where items were dropped, if anywhere.
    public let gaps: [Gap]
    /// The line left out because it was cut short, when ``init(contentsOf:recordedStateType:allowingTruncatedLastLine:)``
    /// was allowed to leave it out.
    public let truncatedLine: Int?

    /// Reads the recording at `url`, written for a store whose state is `S` (or, when the type was
    /// renamed or moved since, whose state type was named `recordedStateType`). A last line cut
    /// short by a crash is an error unless `allowingTruncatedLastLine`, which reads up to it.
    public init(contentsOf url: URL, recordedStateType: String? = nil, allowingTruncatedLastLine: Bool = false) throws {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw RecordingError.fileNotFound(path: path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RecordingError.unreadable(path: path, reason: "\(error)")
        }
        try self.init(data: data, source: path, recordedStateType: recordedStateType, allowingTruncatedLastLine: allowingTruncatedLastLine)
    }

    /// Reads a recording from `data`; `source` names it in errors.
    public init(
        data: Data, source: String = "the recording", recordedStateType: String? = nil, allowingTruncatedLastLine: Bool = false
    ) throws {
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        let endsWithNewline = data.last == 0x0A
        if endsWithNewline {
            lines.removeLast()
        }
        guard let first = lines.first, !first.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else {
            throw RecordingError.empty(source: source)
        }
        var reader: RecordingReader
        do {
            reader = try RecordingReader(header: Data(first), source: source)
        } catch RecordingError.notARecording where lines.count == 1 && !endsWithNewline {
            // A header cut short: the process stopped while writing it.
            throw RecordingError.truncatedLastLine(source: source, line: 1)
        }
        let header = reader.header
        let expected = recordedStateType ?? String(reflecting: S.self)
        guard header.stateType == expected else {
            throw RecordingError.stateTypeMismatch(source: source, recorded: header.stateType, expected: String(reflecting: S.self))
        }
        var entries: [RecordingEntry] = []
        var gaps: [RecordingGap] = []
        var truncatedLine: Int?
        for (index, line) in lines.enumerated().dropFirst() {
            let number = index + 1
            let isLast = index == lines.count - 1
            do {
                switch try reader.read(Data(line), number: number) {
                case .entry(let entry, _): entries.append(entry)
                case .gap(let gap): gaps.append(gap)
                }
            } catch let error as RecordingError {
                guard isLast, !endsWithNewline else { throw error }
                guard allowingTruncatedLastLine else {
                    throw RecordingError.truncatedLastLine(source: source, line: number)
                }
                truncatedLine = number
            }
        }
        self.source = source
        stateType = header.stateType
        started = header.started
        statesRecorded = header.statesRecorded
        initialState = header.initialState
        self.entries = entries
        self.gaps = gaps
        self.truncatedLine = truncatedLine
    }
}

/// One recorded item, as read.
public struct RecordingEntry: Sendable {
    /// Its place in the recording, from 1.
    public let position: UInt64
    /// Its place in dispatch order (what a side effect's origin refers to).
    public let sequence: UInt64
    /// When it was recorded.
    public let time: Date
    /// Where it came from.
    public let origin: DispatchOrigin
    /// Its type, fully qualified.
    public let typeName: String
    /// Its kind.
    public let kind: RecordedItemKind
    /// How handling it went.
    public let outcome: RecordedOutcome
    /// Its encoding; nil when it was not `Encodable` (it cannot be replayed).
    public let encoding: JSONValue?
    /// The item drawn on one line, when it has no encoding.
    public let rendering: String?
    /// The state after it, encoded; nil when the state type is not `Encodable`.
    public let stateAfter: JSONValue?
    /// Its line in the file (the header is line 1).
    public let line: Int
}

/// Where items were dropped because the file's writer fell behind.
public struct RecordingGap: Sendable, Equatable {
    /// The gap's line in the file.
    public let line: Int
    /// How many items were dropped.
    public let dropped: UInt64
    /// How many entries come before it.
    public let entriesBefore: Int
}


