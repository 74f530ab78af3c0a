/// What went wrong reading, writing or replaying a recording: each case names the file's line or
/// the item, and its description says how to fix it.
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A ``RecordingFile`` could not create its file.
    case cannotCreateFile(path: String, reason: String)
    /// There is no file at the path.
    case fileNotFound(path: String)
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The path names a directory, a named pipe or something else that is not a regular file
    /// (`kind` says which); it is not opened.
    case notARegularFile(path: String, kind: String)
    /// A line is longer than the reader takes: the file is not a recording, or its state is huge.
    case lineTooLong(source: String, line: Int, limit: Int)
    /// The file (or data) has nothing in it.
    case empty(source: String)
    /// The first line is not a recording's header.
    case notARecording(source: String, firstLine: String)
    /// The recording is of a format version this package does not read.
    case unsupportedVersion(source: String, found: Int, supported: Int)
    /// The recording is of a store whose state type is not the one given.
    case stateTypeMismatch(source: String, recorded: String, expected: String)
    /// The recorded state type is not `Encodable`, so the recording has no states to compare.
    case statesNotRecorded(source: String, stateType: String)
    /// The last line is cut short (the process stopped while writing it).
    case truncatedLastLine(source: String, line: Int)
    /// A line that is not the JSON of a recorded item.
    case malformedLine(source: String, line: Int, reason: String)
    /// A file sink dropped items here because its writer fell behind: a replay cannot go past it.
    case gap(source: String, line: Int, dropped: UInt64)
    /// A recorded item's type is neither in the replay's item types nor renamed to one of them.
    case unknownItemType(type: String, position: UInt64, line: Int)
    /// A recorded item that was not `Encodable` when recorded, so it cannot be replayed.
    case itemNotReplayable(type: String, position: UInt64, line: Int, rendering: String)
    /// A recorded item's encoding does not decode as the type it is replayed as.
    case itemDoesNotDecode(type: String, replayedAs: String, position: UInt64, line: Int, reason: String)
    /// The replay's store did not handle a replayed item (it rejected it, or an interceptor did).
    case replayedItemFailed(type: String, position: UInt64, line: Int, error: String)
    /// The replay's store did not handle a replayed item in time.
    case replayTimedOut(type: String, position: UInt64, line: Int, seconds: Double)

    /// What happened, where, and how to fix it, with any control character that came from the
    /// file (or its path) escaped, so that printing it cannot drive the terminal.
    public var description: String {
        Self.escapingControlCharacters(unescapedDescription)
    }

    private var unescapedDescription: String {
        switch self {
        case let .cannotCreateFile(path, reason):
            "Cannot create the recording file \(path): \(reason)."
        case .fileNotFound(let path):
            "There is no recording at \(path); check the path (a RecordingFile writes one, FlightRecorder.write(to:) dumps one)."
        case let .unreadable(path, reason):
            "The recording \(path) cannot be read: \(reason); check its permissions."
        case let .notARegularFile(path, kind):
            "\(path) is \(kind), not a recording file: give the path of the file a RecordingFile wrote (or "
                + "FlightRecorder.write(to:) dumped), such as session.jsonl."
        case let .lineTooLong(source, line, limit):
            "Line \(line) of \(source) is longer than \(limit) bytes, the longest line read: it is not a recording's "
                + "line, or the state in it is very large. If it is a real state, read it with a larger limit "
                + "(maximumLineLength:)."
        case .empty(let source):
            "The recording \(source) is empty: it has no header line. A RecordingFile writes its header when its "
                + "recorder's store starts; record from a store built with StoreRecorder(to:) installed."
        case let .notARecording(source, firstLine):
            "\(source) is not a Katana recording: line 1 should be a header with \"format\": \"\(RecordingLines.format)\", "
                + "but it is \(Self.excerpt(firstLine)). Pass a file written by RecordingFile or FlightRecorder.write(to:)."
        case let .unsupportedVersion(source, found, supported):
            "The recording \(source) is format version \(found), but this version of KatanaRecording reads versions "
                + "1 to \(supported); read it with the package version that wrote it, or record it again."
        case let .stateTypeMismatch(source, recorded, expected):
            "The recording \(source) is of a store whose state is \(recorded), not \(expected). Replay it with that "
                + "state type; if the type was renamed or moved, pass recordedStateType: \"\(recorded)\"."
        case let .statesNotRecorded(source, stateType):
            "The recording \(source) has no states: \(stateType) was not Encodable when it was recorded. Make it "
                + "Codable and record again."
        case let .truncatedLastLine(source, line):
            "The last line of \(source) (line \(line)) is cut short: the process stopped while writing it. Pass "
                + "allowingTruncatedLastLine: true to read the recording up to line \(line - 1)."
        case let .malformedLine(source, line, reason):
            "Line \(line) of \(source) is not a recorded item: \(reason). The file was changed by hand or by another "
                + "program; restore it, or cut the recording before line \(line)."
        case let .gap(source, line, dropped):
            "Line \(line) of \(source) records a gap: \(dropped) item(s) were dropped because the file's writer fell "
                + "behind, so no replay can go past it. Raise RecordingFile's bufferLimit and record again, or replay "
                + "the items before line \(line) (replay(..., upToLine: \(line - 1)))."
        case let .unknownItemType(type, position, line):
            "Item \(position) (line \(line)) is a \(type), which is not in the replay's item types. Add \(Self.shortName(type)).self "
                + "to items:, or map it to the type that replaced it with renaming: [\"\(Self.shortName(type))\": NewType.self]."
        case let .itemNotReplayable(type, position, line, rendering):
            "Item \(position) (line \(line)) is a \(type) that was not Encodable when it was recorded "
                + "(\(Self.excerpt(rendering))), so it cannot be replayed. Make \(Self.shortName(type)) Codable and record again."
        case let .itemDoesNotDecode(type, replayedAs, position, line, reason):
            "Item \(position) (line \(line)), a \(type), does not decode as \(replayedAs): \(reason). Give "
                + "\(Self.shortName(replayedAs)) the same encoding as \(Self.shortName(type)) (its coding keys), or map the "
                + "name to another type."
        case let .replayedItemFailed(type, position, line, error):
            "The replay's store did not handle item \(position) (line \(line)), a \(type): \(error). Build the store "
                + "for a replay without interceptors that block items."
        case let .replayTimedOut(type, position, line, seconds):
            "The replay's store did not handle item \(position) (line \(line)), a \(type), within \(seconds) seconds; "
                + "check that its updater returns, or pass a longer timeout:."
        }
    }

    /// A type's own name, as its declaration writes it: without its module and the types it is
    /// nested in (generic arguments are kept as they are).
    static func shortName(_ type: String) -> String {
        let generic = type.firstIndex(of: "<") ?? type.endIndex
        guard let dot = type[..<generic].lastIndex(of: "."), !type.hasPrefix("(") else { return type }
        return String(type[type.index(after: dot)...])
    }

    /// The names a recorded type may be looked up by, most specific first: fully qualified,
    /// without its module, and its own name.
    static func lookupNames(_ type: String) -> [String] {
        var names = [type]
        let generic = type.firstIndex(of: "<") ?? type.endIndex
        if let dot = type[..<generic].firstIndex(of: "."), !type.hasPrefix("(") {
            names.append(String(type[type.index(after: dot)...]))
        }
        let own = shortName(type)
        if !names.contains(own) {
            names.append(own)
        }
        return names
    }

    /// `text` with its control characters (C0, DEL and C1: escape sequences, new lines, bells)
    /// written as `\u{1B}`, so that text from a file is shown, never obeyed by a terminal.
    public static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
    }

    private static func excerpt(_ text: String) -> String {
        let limit = 80
        let cut = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "\"\(cut)\""
    }
}
