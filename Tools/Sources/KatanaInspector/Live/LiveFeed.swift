import Foundation
import KatanaRecording

/// Turns the lines a live store's recording stream hands over into the inspector's history: the
/// header makes the history, each later line adds an item, a side effect's end or a gap.
final class LiveFeed: Sendable {
    private let source: HistorySource
    private let limit: Int
    private let byteLimit: Int
    private let splitter: Locked<RecordingLineSplitter>

    init(source: HistorySource, limit: Int, byteLimit: Int, maximumLineLength: Int) {
        self.source = source
        self.limit = limit
        self.byteLimit = byteLimit
        splitter = Locked(RecordingLineSplitter(source: "the live store", maximumLineLength: maximumLineLength))
    }

    /// Reads a batch of whole lines (on the stream's queue, one batch at a time).
    func take(_ lines: Data) {
        splitter.withLock { splitter in
            do {
                try splitter.append(lines) { line, number in
                    if let history = source.history {
                        try history.read(line, number: number)
                    } else {
                        let reader = try RecordingReader(header: line, source: "live store")
                        source.set(InspectorHistory(reader: reader, live: true, limit: limit, byteLimit: byteLimit))
                    }
                }
            } catch {
                // The package's own encoder wrote these lines; a line it cannot read back is a
                // bug, reported without stopping the store.
                TerminalText.report("KatanaInspector: a live line could not be read: ", escaping: error)
            }
        }
    }
}
