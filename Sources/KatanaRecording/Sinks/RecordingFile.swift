import Dispatch
import Foundation
import Katana

/// A recording written to a file as the store goes: a header line, then one JSON line per item
/// (``Recording`` reads it back, `katana-inspector` shows it).
///
/// Appending never waits for the disk: items are kept as values in a buffer and a queue of the
/// file's own encodes and writes them, a few milliseconds behind. If the writer falls more than
/// `bufferLimit` items or about `bufferByteLimit` bytes behind (see
/// ``RecordingStream/bufferByteLimit``), newer items are dropped and a line says how many, instead
/// of the store slowing down. A crash loses what was still in the buffer, and may leave the last line
/// cut short (``Recording`` can read such a file up to its last whole line). ``flush()`` waits
/// until everything appended so far is on disk.
///
/// ```swift
/// let file = try RecordingFile<AppState>(writingTo: URL(fileURLWithPath: "session.jsonl"))
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors { StoreRecorder(to: file) })
/// ```
public final class RecordingFile<S: State>: RecordingSink, Sendable {
    /// The state type of the store it records.
    public typealias StateType = S

    /// Where it writes.
    public let url: URL
    /// The lines, encoded on the stream's queue, which writes them to the file.
    @usableFromInline let stream: RecordingStream<S>
    private let handle: FileHandle

    /// Creates (or empties) the file at `url`; the header is written when the recorder's store
    /// starts. Writes the whole state every `snapshotInterval` items and only the changes between.
    /// Throws ``RecordingError/cannotCreateFile(path:reason:)`` when the file cannot be created.
    public init(writingTo url: URL, snapshotInterval: Int = 100, bufferLimit: Int = 100_000, bufferByteLimit: Int = 256 << 20) throws {
        self.url = url
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw RecordingError.cannotCreateFile(path: url.path, reason: Self.creationFailure(at: url))
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw RecordingError.cannotCreateFile(path: url.path, reason: "\(error)")
        }
        self.handle = handle
        stream = RecordingStream(
            snapshotInterval: snapshotInterval, bufferLimit: bufferLimit, bufferByteLimit: bufferByteLimit, label: "KatanaRecording.RecordingFile"
        ) { lines in
            try handle.write(contentsOf: lines)
        }
    }

    deinit {
        try? handle.close()
    }

    /// How many items may wait for the writer before newer ones are dropped.
    public var bufferLimit: Int {
        stream.bufferLimit
    }

    /// About how many bytes may wait for the writer before newer items are dropped.
    public var bufferByteLimit: Int {
        stream.bufferByteLimit
    }

    /// Queues the header.
    public func begin(stateType: String, initialState: S) {
        stream.begin(stateType: stateType, initialState: initialState)
    }

    /// Queues `item` for the writer (or counts it as dropped when the writer is too far behind).
    @inlinable
    public func append(_ item: RecordedItem<S>) {
        stream.append(item)
    }

    /// Queues a side effect's end for writing.
    public func append(_ end: RecordedEnd) {
        stream.append(end)
    }

    /// How many items were dropped so far because the writer fell behind.
    public var droppedCount: UInt64 {
        stream.droppedCount
    }

    /// Why writing stopped, if it did (the disk is full, the file was removed, ...); nothing is
    /// written after a failure.
    public var writeFailure: String? {
        stream.outputFailure.map { "writing \(url.path) failed: \($0)" }
    }

    /// Waits until every item appended so far is written to the file.
    public func flush() {
        stream.flush()
    }

    /// Writes what is pending, then closes the file: later items are ignored.
    public func close() {
        stream.close()
        try? handle.synchronize()
    }

    private static func creationFailure(at url: URL) -> String {
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            return "the folder \(directory) does not exist; create it first"
        }
        return "the folder \(directory) cannot be written to (check its permissions), or the name is taken by a folder"
    }
}
