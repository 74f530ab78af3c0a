import Foundation

/// Cuts a recording's bytes into lines however they arrive (a file read a chunk at a time, a
/// socket), refusing a line longer than a limit as soon as it grows past it: a file that is not a
/// recording (one huge line of anything) fails fast, instead of being read whole into memory.
///
/// ```swift
/// var lines = RecordingLineSplitter(source: "session.jsonl")
/// try lines.append(chunk) { line, number in ... }   // each complete line, without its newline
/// if let (last, number) = lines.remainder { ... }    // a last line with no newline after it
/// ```
public struct RecordingLineSplitter: Sendable {
    /// The longest line read by default: 64 MiB, room for a very large state.
    public static let defaultMaximumLineLength = 64 << 20

    /// What is read, for errors: the file's path, or a name.
    public let source: String
    /// The longest line taken, in bytes (without its newline).
    public let maximumLineLength: Int
    private var partial = Data()
    private var number = 0

    /// A splitter for the recording named `source` that takes lines of at most `maximumLineLength` bytes.
    public init(source: String, maximumLineLength: Int = defaultMaximumLineLength) {
        self.source = source
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// Adds `chunk`; calls `body` with each line it completes (without its newline) and the line's
    /// number, from 1. Throws ``RecordingError/lineTooLong(source:line:limit:)`` as soon as a line
    /// is longer than ``maximumLineLength``, and what `body` throws.
    public mutating func append(_ chunk: Data, _ body: (Data, Int) throws -> Void) throws {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            number += 1
            let piece = chunk[start ..< newline]
            try checkLength(partial.count + piece.count, line: number)
            if partial.isEmpty {
                try body(Data(piece), number)
            } else {
                partial.append(piece)
                try body(partial, number)
                partial = Data()
            }
            start = chunk.index(after: newline)
        }
        try checkLength(partial.count + (chunk.endIndex - start), line: number + 1)
        partial.append(chunk[start...])
    }

    /// What came after the last newline, with its line number; nil when nothing did.
    public var remainder: (line: Data, number: Int)? {
        partial.isEmpty ? nil : (partial, number + 1)
    }

    private func checkLength(_ length: Int, line: Int) throws {
        guard length > maximumLineLength else { return }
        throw RecordingError.lineTooLong(source: source, line: line, limit: maximumLineLength)
    }
}

extension RecordingLineSplitter {
    /// Reads the file at `path` a chunk at a time and calls `body` with each line that ends with a
    /// newline (without it) and its number; returns what follows the last newline, if anything
    /// does (a last line that may have been cut short). A path that is not a regular file (a
    /// directory, a named pipe) is refused without being opened, and a line longer than
    /// `maximumLineLength` as soon as it is seen.
    public static func readLines(
        ofFileAt path: String, maximumLineLength: Int = defaultMaximumLineLength, _ body: (Data, Int) throws -> Void
    ) throws -> (line: Data, number: Int)? {
        var lines = RecordingLineSplitter(source: path, maximumLineLength: maximumLineLength)
        try RecordingFileChunks.read(path: path) { chunk in try lines.append(chunk, body) }
        return lines.remainder
    }
}
