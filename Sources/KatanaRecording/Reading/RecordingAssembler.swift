import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole recording for ``Recording``, as its bytes arrive: the header, then each line,
/// with a last line that has no newline after it treated as possibly cut short.
struct RecordingAssembler {
    /// What a whole recording read gives.
    struct Assembled {
        let reader: RecordingReader
        let entries: [RecordingEntry]
        let ends: [RecordedEnd]
        let gaps: [RecordingGap]
        let truncatedLine: Int?
    }

    private let source: String
    private let expectedStateType: String
    private let actualStateType: String
    private var lines: RecordingLineSplitter
    private var reader: RecordingReader?
    private var entries: [RecordingEntry] = []
    private var ends: [RecordedEnd] = []
    private var gaps: [RecordingGap] = []

    /// An assembler for the recording named `source`, of a store whose state type was named
    /// `expectedStateType` (the reading code's state type is `actualStateType`).
    init(source: String, expectedStateType: String, actualStateType: String, maximumLineLength: Int) {
        self.source = source
        self.expectedStateType = expectedStateType
        self.actualStateType = actualStateType
        lines = RecordingLineSplitter(source: source, maximumLineLength: maximumLineLength)
    }

    /// Takes the next bytes of the recording.
    mutating func append(_ chunk: Data) throws {
        var lines = self.lines
        defer { self.lines = lines }
        try lines.append(chunk) { line, number in try take(line, number: number, isComplete: true) }
    }

    /// Reads the last line, if the bytes did not end with a newline, and returns what was read.
    mutating func finish(allowingTruncatedLastLine: Bool) throws -> Assembled {
        var truncatedLine: Int?
        if let (last, number) = lines.remainder {
            do {
                try take(last, number: number, isComplete: false)
            } catch let error as RecordingError {
                // A last line without its newline that does not read: the process stopped while
                // writing it (for a header, only one that is not a header at all).
                if reader == nil {
                    guard case .notARecording = error else { throw error }
                    throw RecordingError.truncatedLastLine(source: source, line: number)
                }
                guard allowingTruncatedLastLine else {
                    throw RecordingError.truncatedLastLine(source: source, line: number)
                }
                truncatedLine = number
            }
        }
        guard let reader else { throw RecordingError.empty(source: source) }
        return Assembled(reader: reader, entries: entries, ends: ends, gaps: gaps, truncatedLine: truncatedLine)
    }

    private mutating func take(_ line: Data, number: Int, isComplete: Bool) throws {
        guard var current = reader else {
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else { throw RecordingError.empty(source: source) }
            let header = try RecordingReader(header: line, source: source)
            guard header.header.stateType == expectedStateType else {
                throw RecordingError.stateTypeMismatch(source: source, recorded: header.header.stateType, expected: actualStateType)
            }
            reader = header
            return
        }
        defer { reader = current }
        switch try current.read(line, number: number) {
        case .entry(let entry, _): entries.append(entry)
        case .end(let end): ends.append(end)
        case .gap(let gap): gaps.append(gap)
        }
    }
}

/// Reads a file a chunk at a time, after checking that it is a regular file (a directory or a
/// named pipe is refused without being opened, so reading never blocks on a pipe with no writer).
enum RecordingFileChunks {
    /// Bytes read at a time.
    static let chunkSize = 1 << 20

    /// Calls `body` with each chunk of the file at `path`, in order.
    static func read(path: String, _ body: (Data) throws -> Void) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let problem = errno
            guard problem != ENOENT, problem != ENOTDIR else { throw RecordingError.fileNotFound(path: path) }
            throw RecordingError.unreadable(path: path, reason: String(cString: strerror(problem)))
        }
        if let kind = kindIfNotRegular(status.st_mode) {
            throw RecordingError.notARegularFile(path: path, kind: kind)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RecordingError.unreadable(path: path, reason: "it cannot be opened for reading")
        }
        defer { try? handle.close() }
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw RecordingError.unreadable(path: path, reason: "reading it failed (\(error.localizedDescription))")
            }
            if chunk.isEmpty { return }
            try body(chunk)
        }
    }

    /// What kind of file a `st_mode` says, when it is not a regular file; nil for a regular one.
    static func kindIfNotRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }
}
