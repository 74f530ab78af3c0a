import Foundation
import Katana

/// A recording read back from a file (or from ``FlightRecorder/recordingData(snapshotInterval:)``):
/// its header, its items, each with the state after it, and its side effects' ends, checked line
/// by line.
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
    /// How the recorded side effects ended, in the order recorded (format version 2 on; empty
    /// for an earlier recording). Each names its side effect's ``RecordingEntry/sequence``.
    public let ends: [RecordedEnd]
    /// Where items were dropped, if anywhere.
    public let gaps: [Gap]
    /// The line left out because it was cut short, when ``init(contentsOf:recordedStateType:allowingTruncatedLastLine:)``
    /// was allowed to leave it out.
    public let truncatedLine: Int?

    /// Reads the recording at `url`, written for a store whose state is `S` (or, when the type was
    /// renamed or moved since, whose state type was named `recordedStateType`). A last line cut
    /// short by a crash is an error unless `allowingTruncatedLastLine`, which reads up to it. The
    /// file is read a chunk at a time, and a line longer than `maximumLineLength` bytes is an error
    /// as soon as it is seen; a path that is not a regular file (a directory, a named pipe) is an
    /// error without being opened.
    public init(
        contentsOf url: URL, recordedStateType: String? = nil, allowingTruncatedLastLine: Bool = false,
        maximumLineLength: Int = RecordingLineSplitter.defaultMaximumLineLength
    ) throws {
        let path = url.path
        var assembler = RecordingAssembler(
            source: path, expectedStateType: recordedStateType ?? String(reflecting: S.self), actualStateType: String(reflecting: S.self),
            maximumLineLength: maximumLineLength
        )
        try RecordingFileChunks.read(path: path) { chunk in try assembler.append(chunk) }
        self.init(try assembler.finish(allowingTruncatedLastLine: allowingTruncatedLastLine))
    }

    /// Reads a recording from `data`; `source` names it in errors.
    public init(
        data: Data, source: String = "the recording", recordedStateType: String? = nil, allowingTruncatedLastLine: Bool = false,
        maximumLineLength: Int = RecordingLineSplitter.defaultMaximumLineLength
    ) throws {
        var assembler = RecordingAssembler(
            source: source, expectedStateType: recordedStateType ?? String(reflecting: S.self), actualStateType: String(reflecting: S.self),
            maximumLineLength: maximumLineLength
        )
        try assembler.append(data)
        self.init(try assembler.finish(allowingTruncatedLastLine: allowingTruncatedLastLine))
    }

    private init(_ read: RecordingAssembler.Assembled) {
        source = read.reader.source
        stateType = read.reader.header.stateType
        started = read.reader.header.started
        statesRecorded = read.reader.header.statesRecorded
        initialState = read.reader.header.initialState
        entries = read.entries
        ends = read.ends
        gaps = read.gaps
        truncatedLine = read.truncatedLine
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
    /// The request it was dispatched for, as the recorder's correlation function named it; nil
    /// when none was named, and in recordings made without one.
    public let correlation: String?
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


