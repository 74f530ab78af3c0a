import Foundation
import KatanaRecording

/// Reads a recording file into an ``InspectorHistory`` a chunk at a time, so that a file of any
/// size is read with a bounded buffer, and a line longer than the inspector takes is an error
/// that names it instead of a process that runs out of memory.
enum RecordingFileLoader {
    /// The history of the recording at `path`. A last line cut short (the process stopped while
    /// writing it) is left out with a warning; any other bad line is an error, and so is a path
    /// that is not a regular file (refused without being opened: a named pipe would block).
    static func load(path: String, maximumLineLength: Int) throws -> InspectorHistory {
        var history: InspectorHistory?
        let remainder: (line: Data, number: Int)?
        do {
            remainder = try RecordingLineSplitter.readLines(ofFileAt: path, maximumLineLength: maximumLineLength) { line, number in
                try take(line, number: number, path: path, into: &history)
            }
        } catch RecordingError.lineTooLong(_, let line, let limit) {
            // The inspector's own error, which names its command-line option.
            throw InspectorError.lineTooLong(path: path, line: line, limit: limit)
        }
        if let (last, number) = remainder {
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
