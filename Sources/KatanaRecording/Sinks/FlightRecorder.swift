import Foundation
import Katana

/// A bounded, in-memory recording: the last `capacity` items its store handled, and the last
/// `capacity` side-effect ends, for a service to dump on a signal or after a failure. Appending keeps the item and the state as values (nothing
/// is encoded until ``recordingData(snapshotInterval:)`` or ``write(to:snapshotInterval:)``).
///
/// ```swift
/// let flightRecorder = FlightRecorder<AppState>(capacity: 1_000)
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors { StoreRecorder(to: flightRecorder) })
/// // ... after a failure:
/// try flightRecorder.write(to: URL(fileURLWithPath: "/tmp/last-items.jsonl"))
/// ```
public final class FlightRecorder<S: State>: RecordingSink, @unchecked Sendable {
    // @unchecked: every variable is only touched with `lock` held; `capacity` is a constant.
    /// The state type of the store it records.
    public typealias StateType = S

    /// How many items it keeps (at least 1).
    public let capacity: Int
    @usableFromInline let lock = NSLock()
    /// The kept items and the state before the oldest, in one value, so that an item takes one
    /// access to it.
    @usableFromInline @exclusivity(unchecked) var ring: Ring
    /// The kept ends, oldest at `oldestEnd` once full.
    private var endBuffer: [RecordedEnd] = []
    private var oldestEnd = 0
    private var stateType = String(reflecting: S.self)
    private var started = Date()

    /// A recorder that keeps the last `capacity` items (a capacity below 1 keeps 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = Ring(capacity: self.capacity)
    }

    /// Keeps the store's state type and its state before any item.
    public func begin(stateType: String, initialState: S) {
        lock.lock()
        defer { lock.unlock() }
        self.stateType = stateType
        ring.stateBeforeOldest = initialState
        started = Date()
    }

    /// Keeps `item`, letting the oldest go when full.
    @inlinable
    public func append(_ item: RecordedItem<S>) {
        keep(item)
    }

    /// ``append(_:)``, taking the item instead of copying it.
    @inlinable
    func keep(_ item: consuming RecordedItem<S>) {
        lock.lock()
        defer { lock.unlock() }
        ring.append(item)
    }

    /// The kept items, oldest at `oldest` once `buffer` is full, and the state before the oldest.
    @usableFromInline
    struct Ring {
        @usableFromInline let capacity: Int
        @usableFromInline var buffer: [RecordedItem<S>] = []
        @usableFromInline var oldest = 0
        @usableFromInline var stateBeforeOldest: S?

        init(capacity: Int) {
            self.capacity = capacity
            buffer.reserveCapacity(min(capacity, 4_096))
        }

        /// Keeps `item`; when full, it takes the oldest's place, whose state after becomes the
        /// state before the oldest (moved, not copied).
        @inlinable
        mutating func append(_ item: consuming RecordedItem<S>) {
            guard buffer.count == capacity else {
                buffer.append(item)
                return
            }
            var replaced = item
            swap(&buffer[oldest], &replaced)
            stateBeforeOldest = replaced.stateAfter
            oldest = oldest + 1 == capacity ? 0 : oldest + 1
        }

        /// The kept items, oldest first.
        var ordered: [RecordedItem<S>] {
            Array(buffer[oldest...] + buffer[..<oldest])
        }
    }

    /// The kept items, oldest first.
    public var items: [RecordedItem<S>] {
        lock.lock()
        defer { lock.unlock() }
        return ring.ordered
    }

    /// The state before the oldest kept item (the store's first state while nothing was dropped);
    /// nil before the store started.
    public var stateBeforeFirstItem: S? {
        lock.lock()
        defer { lock.unlock() }
        return ring.stateBeforeOldest
    }

    /// Keeps a side effect's end, letting the oldest go when `capacity` are kept.
    public func append(_ end: RecordedEnd) {
        lock.lock()
        defer { lock.unlock() }
        guard endBuffer.count == capacity else {
            endBuffer.append(end)
            return
        }
        endBuffer[oldestEnd] = end
        oldestEnd = oldestEnd + 1 == capacity ? 0 : oldestEnd + 1
    }

    /// The kept side-effect ends, oldest first.
    public var ends: [RecordedEnd] {
        lock.lock()
        defer { lock.unlock() }
        return orderedEnds
    }

    private var orderedEnds: [RecordedEnd] {
        Array(endBuffer[oldestEnd...] + endBuffer[..<oldestEnd])
    }

    /// The kept items as a recording file's contents (a header whose initial state is
    /// ``stateBeforeFirstItem``, then a line per item and per kept end, in the order they were
    /// recorded), which ``Recording`` reads.
    public func recordingData(snapshotInterval: Int = 100) -> Data {
        lock.lock()
        let items = ring.ordered
        let ends = orderedEnds
        let initial = ring.stateBeforeOldest
        let stateType = stateType
        let started = started
        lock.unlock()
        guard let initial else { return Data() }
        let encoder = RecordingEncoder<S>(snapshotInterval: snapshotInterval)
        var data = encoder.header(stateType: stateType, initialState: initial, started: started)
        var nextEnd = ends.startIndex
        for item in items {
            while nextEnd < ends.endIndex, ends[nextEnd].time < item.time {
                data.append(encoder.end(ends[nextEnd]))
                nextEnd += 1
            }
            data.append(encoder.entry(item))
        }
        for end in ends[nextEnd...] {
            data.append(encoder.end(end))
        }
        return data
    }

    /// Writes ``recordingData(snapshotInterval:)`` to `url`, replacing what is there.
    public func write(to url: URL, snapshotInterval: Int = 100) throws {
        try recordingData(snapshotInterval: snapshotInterval).write(to: url, options: .atomic)
    }
}
