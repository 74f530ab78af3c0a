import Dispatch
import Foundation
import Katana

/// A recording as a stream of lines: items are encoded on a queue of the stream's own, a few
/// milliseconds behind the store, and handed to `output` in batches of whole lines (the format of a
/// recording file: a header line, then one JSON line per item). ``RecordingFile`` writes them to a
/// file; a tool can send them elsewhere (`katana-inspector` shows a live store this way).
///
/// Appending never waits for `output`: if it falls more than `bufferLimit` items behind, newer
/// items are dropped and a line says how many, instead of the store slowing down. When `output`
/// throws, the stream stops (``outputFailure`` says why).
///
/// ```swift
/// let stream = RecordingStream<AppState> { lines in try socket.send(lines) }
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors { StoreRecorder(to: stream) })
/// ```
public final class RecordingStream<S: State>: RecordingSink, @unchecked Sendable {
    // @unchecked: `pending`, `dropped`, `droppedInTotal`, `scheduled`, `closed` and `failure` are
    // only touched with `lock` held; `encoder` only on `queue`; the rest are constants.
    /// The state type of the store it records.
    public typealias StateType = S

    /// How many items may wait for the encoder before newer ones are dropped.
    public let bufferLimit: Int
    @usableFromInline let lock = NSLock()
    private let queue: DispatchQueue
    private let encoder: RecordingEncoder<S>
    private let output: @Sendable (Data) throws -> Void
    @usableFromInline var pending: [Pending] = []
    @usableFromInline var dropped: UInt64 = 0
    @usableFromInline var droppedInTotal: UInt64 = 0
    @usableFromInline var scheduled = false
    @usableFromInline var closed = false
    @usableFromInline var failure: (any Error)?

    @usableFromInline
    enum Pending {
        case header(stateType: String, initialState: S, started: Date)
        case item(RecordedItem<S>)
        case end(RecordedEnd)
        case gap(UInt64)
    }

    /// A stream that hands its lines to `output`, with the whole state every `snapshotInterval`
    /// items and only the changes between.
    public init(
        snapshotInterval: Int = 100, bufferLimit: Int = 100_000, label: String = "KatanaRecording.RecordingStream",
        output: @escaping @Sendable (Data) throws -> Void
    ) {
        self.bufferLimit = max(1, bufferLimit)
        queue = DispatchQueue(label: label)
        encoder = RecordingEncoder(snapshotInterval: snapshotInterval)
        self.output = output
    }

    /// Queues the header.
    public func begin(stateType: String, initialState: S) {
        enqueue(.header(stateType: stateType, initialState: initialState, started: Date()))
    }

    /// Queues `item` for the encoder (or counts it as dropped when the encoder is too far behind).
    @inlinable
    public func append(_ item: RecordedItem<S>) {
        enqueue(.item(item))
    }

    /// Queues a side effect's end for the encoder (dropped, as an item would be, when the encoder
    /// is too far behind).
    public func append(_ end: RecordedEnd) {
        enqueue(.end(end))
    }

    /// How many items were dropped so far because `output` fell behind.
    public var droppedCount: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return droppedInTotal + dropped
    }

    /// What `output` threw, if it did; nothing is handed to it after that.
    public var outputFailure: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    /// Waits until every item appended so far has been handed to `output`.
    public func flush() {
        queue.sync { drain() }
    }

    /// Hands what is pending to `output`, then stops: later items are ignored.
    public func close() {
        flush()
        lock.lock()
        closed = true
        lock.unlock()
    }

    @inlinable
    func enqueue(_ entry: Pending) {
        lock.lock()
        guard !closed, failure == nil else {
            lock.unlock()
            return
        }
        if entry.isDroppable, pending.count >= bufferLimit {
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
            scheduleEncoder()
        }
    }

    /// Has the encoder encode what is pending.
    @usableFromInline
    func scheduleEncoder() {
        queue.async { self.drain() }
    }

    /// Encodes everything pending and hands it to `output` (on `queue`).
    private func drain() {
        lock.lock()
        if dropped > 0 {
            pending.append(.gap(dropped))
            droppedInTotal += dropped
            dropped = 0
        }
        let batch = pending
        pending = []
        scheduled = false
        let stopped = failure != nil
        lock.unlock()
        guard !batch.isEmpty, !stopped else { return }
        var data = Data()
        for entry in batch {
            switch entry {
            case let .header(stateType, initialState, started):
                data.append(encoder.header(stateType: stateType, initialState: initialState, started: started))
            case .item(let item):
                data.append(encoder.entry(item))
            case .end(let end):
                data.append(encoder.end(end))
            case .gap(let count):
                data.append(encoder.gap(count))
            }
        }
        do {
            try output(data)
        } catch {
            lock.lock()
            failure = error
            lock.unlock()
        }
    }
}

extension RecordingStream.Pending {
    /// Whether it is dropped when the encoder is too far behind: an item or an end, not the header.
    @usableFromInline
    var isDroppable: Bool {
        switch self {
        case .item, .end: true
        case .header, .gap: false
        }
    }
}
