import Foundation
import KatanaRecording

/// Reads a recording file into an ``InspectorHistory`` a chunk at a time, so that a file of any
/// size is read with a bounded buffer, and a line longer than the inspector takes is an error
/// that names it instead of a process that runs out of memory.
enum RecordingFileLoader {
    /// Bytes read at a time.
    static let chunkSize = 1 << 20

    /// The history of the recording at `path`. A last line cut short (the process stopped while
    /// writing it) is left out with a warning; any other bad line is an error.
    static func load(path: String, maximumLineLength: Int) throws -> InspectorHistory {
        guard FileManager.default.fileExists(atPath: path) else {
            throw RecordingError.fileNotFound(path: path)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RecordingError.unreadable(path: path, reason: "it cannot be opened for reading")
        }
        defer { try? handle.close() }
        var lines = LineSplitter(path: path, maximumLineLength: maximumLineLength)
        var history: InspectorHistory?
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw RecordingError.unreadable(path: path, reason: "\(error)")
            }
            if chunk.isEmpty { break }
            try lines.append(chunk) { line, number in
                try take(line, number: number, path: path, into: &history)
            }
        }
        if let (last, number) = lines.remainder() {
            // The file does not end with a newline: its last line was cut short.
            guard let history else {
                throw RecordingError.truncatedLastLine(source: path, line: number)
            }
            do {
                try history.read(last, number: number)
            } catch {
                history.noteTruncated(line: number)
            }
        }
        guard let history else {
            throw RecordingError.empty(source: path)
        }
        return history
    }

    private static func take(_ line: Data, number: Int, path: String, into history: inout InspectorHistory?) throws {
        if let history {
            try history.read(line, number: number)
        } else if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            throw RecordingError.empty(source: path)
        } else {
            history = InspectorHistory(reader: try RecordingReader(header: line, source: path), live: false)
        }
    }
}

/// Cuts bytes into lines, however they arrive.
struct LineSplitter {
    let path: String
    let maximumLineLength: Int
    private var partial = Data()
    private var number = 0

    init(path: String, maximumLineLength: Int) {
        self.path = path
        self.maximumLineLength = maximumLineLength
    }

    /// Adds `chunk`; calls `body` with each line it completes (without its newline) and its number.
    mutating func append(_ chunk: Data, _ body: (Data, Int) throws -> Void) throws {
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
        partial.append(chunk[start...])
        try checkLength(partial.count, line: number + 1)
    }

    /// What is left after the last newline, with its line number; nil when nothing is.
    func remainder() -> (Data, Int)? {
        partial.isEmpty ? nil : (partial, number + 1)
    }

    private func checkLength(_ length: Int, line: Int) throws {
        guard length > maximumLineLength else { return }
        throw InspectorError.lineTooLong(path: path, line: line, limit: maximumLineLength)
    }
}
