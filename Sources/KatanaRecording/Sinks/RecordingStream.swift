import Dispatch
import Foundation
import Katana

/// A recording as a stream of lines: items are encoded on a queue of the stream's own, a few
/// milliseconds behind the store, and handed to `output` in batches of whole lines (the format of a
/// recording file: a header line, then one JSON line per item). ``RecordingFile`` writes them to a
/// file; a tool can send them elsewhere (`katana-inspector` shows a live store this way).
///
/// Appending never waits for `output`: if it falls more than `bufferLimit` items or about
/// `bufferByteLimit` bytes behind, newer items are dropped and a line says how many, instead of
/// the store slowing down or the buffer growing with a large state. When `output` throws, the
/// stream stops (``outputFailure`` says why).
///
/// ```swift
/// let stream = RecordingStream<AppState> { lines in try socket.send(lines) }
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors { StoreRecorder(to: stream) })
/// ```
public final class RecordingStream<S: State>: RecordingSink, @unchecked Sendable {
    // @unchecked: `pending`, `dropped`, `droppedInTotal`, `scheduled`, `closed`, `failure`,
    // `admitted`, `lastAppended`, `encoding`, `handingOver` and `itemBytes` are only touched with
    // `lock` held; `encoder` only on `queue`; the rest are constants.
    /// The state type of the store it records.
    public typealias StateType = S

    /// How many items may wait for the encoder before newer ones are dropped.
    public let bufferLimit: Int
    /// About how many bytes may wait to be handed to `output` before newer items are dropped: the
    /// lines encoded and not handed over yet, and each item waiting to be encoded counted as the
    /// state it holds and its own entry. A state is counted as the length of its JSON text: the last
    /// one encoded, and, when the state has been growing, that much more for each item further on.
    /// At least one item may always wait.
    public let bufferByteLimit: Int
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
    /// How many items may wait now: `bufferLimit`, or fewer when that many would pass
    /// `bufferByteLimit` (set by `recount()`).
    @usableFromInline var admitted: Int
    /// The position of the last item appended, kept or dropped: how far the store's state has gone
    /// past the last one encoded.
    @usableFromInline var lastAppended: UInt64 = 0
    /// Items the encoder has taken and not encoded yet.
    private var encoding = 0
    /// Bytes being handed to `output`.
    private var handingOver = 0
    /// What an item waiting now is counted as (the state as it is now, and the item's entry).
    private var itemBytes = 0

    @usableFromInline
    enum Pending {
        case header(stateType: String, initialState: S, started: Date)
        case item(RecordedItem<S>)
        case end(RecordedEnd)
        case gap(UInt64)
    }

    /// A stream that hands its lines to `output`, with the whole state every `snapshotInterval`
    /// items and only the changes between. The byte bound's default, 256 MiB, holds a burst of
    /// `bufferLimit` items of a 1 KiB state.
    public init(
        snapshotInterval: Int = 100, bufferLimit: Int = 100_000, bufferByteLimit: Int = 256 << 20,
        label: String = "KatanaRecording.RecordingStream", output: @escaping @Sendable (Data) throws -> Void
    ) {
        self.bufferLimit = max(1, bufferLimit)
        self.bufferByteLimit = max(1, bufferByteLimit)
        admitted = self.bufferLimit
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

    /// About how many bytes wait now, as the byte bound counts them: the lines being handed over,
    /// and each item being encoded or waiting counted as the state as it is now.
    var waitingBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return handingOver + (encoding + pending.count) * itemBytes
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
        if case .item(let item) = entry {
            lastAppended = item.position
        }
        if entry.isDroppable, pending.count >= admitted {
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
        var batch = pending
        pending = []
        scheduled = false
        encoding = batch.count
        recount()
        let stopped = failure != nil
        lock.unlock()
        guard !batch.isEmpty, !stopped else { return }
        var data = Data()
        for index in batch.indices {
            // Each item's values go once it is encoded.
            let entry = batch[index]
            batch[index] = .gap(0)
            if index % 16 == 15 {
                lock.lock()
                (encoding, handingOver) = (batch.count - index, data.count)
                recount()
                lock.unlock()
            }
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
        lock.lock()
        encoding = 0
        handingOver = data.count
        recount()
        lock.unlock()
        do {
            try output(data)
        } catch {
            lock.lock()
            failure = error
            lock.unlock()
        }
        lock.lock()
        handingOver = 0
        recount()
        lock.unlock()
    }

    /// Sets how many items may wait, from the bytes being handed over, the items being encoded and
    /// the state's last length and growth (on `queue`, with `lock` held). A waiting item holds a
    /// state of its own once the store changes its state (copy on write), so each counts as a whole
    /// state: `size`, the state as it is now (the last one encoded, grown over the items appended
    /// since), for those being encoded, and `size + n * growth` for the `n`th to wait; the most
    /// that fit is the largest `n` whose sum, `n * size + growth * n * (n + 1) / 2`, fits.
    private func recount() {
        let growth = encoder.stateGrowth
        let behind = lastAppended > encoder.lastPosition ? Double(lastAppended - encoder.lastPosition) : 0
        let size = Double(encoder.stateBytes + MemoryLayout<Pending>.stride + 64) + growth * behind
        itemBytes = Int(size)
        let room = max(0, Double(bufferByteLimit - handingOver) - Double(encoding) * size)
        let fitting = if growth > 0 {
            (-(size + growth / 2) + ((size + growth / 2) * (size + growth / 2) + 2 * growth * room).squareRoot()) / growth
        } else {
            room / size
        }
        admitted = max(1, Int(min(fitting, Double(bufferLimit))))
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
