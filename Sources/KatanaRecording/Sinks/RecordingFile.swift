import Dispatch
import Foundation
import Katana

/// A recording written to a file as the store goes: a header line, then one JSON line per item
/// (``Recording`` reads it back, `katana-inspector` shows it).
///
/// Appending never waits for the disk: items are kept as values in a buffer and a queue of the
/// file's own encodes and writes them, a few milliseconds behind. If the writer falls more than
/// `bufferLimit` items behind, newer items are dropped and a line says how many, instead of the
/// store slowing down. A crash loses what was still in the buffer, and may leave the last line
/// cut short (``Recording`` can read such a file up to its last whole line). ``flush()`` waits
/// until everything appended so far is on disk.
///
/// ```swift
/// let file = try RecordingFile<AppState>(writingTo: URL(fileURLWithPath: "session.jsonl"))
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors { StoreRecorder(to: file) })
/// ```
public final class RecordingFile<S: State>: RecordingSink, @unchecked Sendable {
    // @unchecked: `pending`, `dropped`, `scheduled`, `closed` and `failure` are only touched with
    // `lock` held; `encoder` and `handle` only on `queue`; the rest are constants.
    /// The state type of the store it records.
    public typealias StateType = S

    /// Where it writes.
    public let url: URL
    /// How many items may wait for the writer before newer ones are dropped.
    public let bufferLimit: Int
    @usableFromInline let lock = NSLock()
    private let queue = DispatchQueue(label: "KatanaRecording.RecordingFile")
    private let encoder: RecordingEncoder<S>
    private let handle: FileHandle
    @usableFromInline var pending: [Pending] = []
    @usableFromInline var dropped: UInt64 = 0
    @usableFromInline var droppedInTotal: UInt64 = 0
    @usableFromInline var scheduled = false
    @usableFromInline var closed = false
    @usableFromInline var failure: String?

    @usableFromInline
    enum Pending {
        case header(stateType: String, initialState: S, started: Date)
        case item(RecordedItem<S>)
        case gap(UInt64)
    }

    /// Creates (or empties) the file at `url`; the header is written when the recorder's store
    /// starts. Writes the whole state every `snapshotInterval` items and only the changes between.
    /// Throws ``RecordingError/cannotCreateFile(path:reason:)`` when the file cannot be created.
    public init(writingTo url: URL, snapshotInterval: Int = 100, bufferLimit: Int = 100_000) throws {
        self.url = url
        self.bufferLimit = max(1, bufferLimit)
        encoder = RecordingEncoder(snapshotInterval: snapshotInterval)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw RecordingError.cannotCreateFile(path: url.path, reason: Self.creationFailure(at: url))
        }
        do {
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw RecordingError.cannotCreateFile(path: url.path, reason: "\(error)")
        }
    }

    deinit {
        try? handle.close()
    }

    /// Queues the header.
    public func begin(stateType: String, initialState: S) {
        enqueue(.header(stateType: stateType, initialState: initialState, started: Date()))
    }

    /// Queues `item` for the writer (or counts it as dropped when the writer is too far behind).
    @inlinable
    public func append(_ item: RecordedItem<S>) {
        enqueue(.item(item))
    }

    /// How many items were dropped so far because the writer fell behind.
    public var droppedCount: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return droppedInTotal + dropped
    }

    /// Why writing stopped, if it did (the disk is full, the file was removed, ...); nothing is
    /// written after a failure.
    public var writeFailure: String? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    /// Waits until every item appended so far is written to the file.
    public func flush() {
        queue.sync { writePending() }
    }

    /// Writes what is pending, then closes the file: later items are ignored.
    public func close() {
        flush()
        lock.lock()
        let wasClosed = closed
        closed = true
        lock.unlock()
        if !wasClosed {
            queue.sync { try? handle.synchronize() }
        }
    }

    @inlinable
    func enqueue(_ entry: Pending) {
        lock.lock()
        guard !closed, failure == nil else {
            lock.unlock()
            return
        }
        if case .item = entry, pending.count >= bufferLimit {
            dropped += 1
            lock.unlock()
            return
        }
        if dropped > 0 {
            pending.append(.gap(dropped))
            droppedInTotal += dropped
            dropped = 0
        }
        pending.append(entry)
        let schedule = !scheduled
        scheduled = true
        lock.unlock()
        if schedule {
            scheduleWriter()
        }
    }

    /// Has the writer write what is pending.
    @usableFromInline
    func scheduleWriter() {
        queue.async { self.writePending() }
    }

    /// Encodes and writes everything pending (on `queue`).
    private func writePending() {
        lock.lock()
        if dropped > 0 {
            pending.append(.gap(dropped))
            droppedInTotal += dropped
            dropped = 0
        }
        let batch = pending
        pending = []
        scheduled = false
        lock.unlock()
        guard !batch.isEmpty else { return }
        var data = Data()
        for entry in batch {
            switch entry {
            case let .header(stateType, initialState, started):
                data.append(encoder.header(stateType: stateType, initialState: initialState, started: started))
            case .item(let item):
                data.append(encoder.entry(item))
            case .gap(let count):
                data.append(encoder.gap(count))
            }
        }
        do {
            try handle.write(contentsOf: data)
        } catch {
            lock.lock()
            failure = "writing \(url.path) failed: \(error)"
            lock.unlock()
        }
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
