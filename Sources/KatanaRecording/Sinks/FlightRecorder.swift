import Foundation
import Katana

/// A bounded, in-memory recording: the last `capacity` items its store handled, for a service to
/// dump on a signal or after a failure. Appending keeps the item and the state as values (nothing
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
    public typealias StateType = S

    /// How many items it keeps (at least 1).
    public let capacity: Int
    private let lock = NSLock()
    /// The kept items, oldest at `oldest` once the buffer is full.
    private var buffer: [RecordedItem<S>] = []
    private var oldest = 0
    /// The state before the oldest kept item.
    private var stateBeforeOldest: S?
    private var stateType = String(reflecting: S.self)
    private var started = Date()

    /// A recorder that keeps the last `capacity` items (a capacity below 1 keeps 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        buffer.reserveCapacity(min(self.capacity, 4_096))
    }

    /// Keeps the store's state type and its state before any item.
    public func begin(stateType: String, initialState: S) {
        lock.lock()
        defer { lock.unlock() }
        self.stateType = stateType
        stateBeforeOldest = initialState
        started = Date()
    }

    /// Keeps `item`, letting the oldest go when full.
    public func append(_ item: RecordedItem<S>) {
        lock.lock()
        defer { lock.unlock() }
        if buffer.count < capacity {
            buffer.append(item)
            return
        }
        stateBeforeOldest = buffer[oldest].stateAfter
        buffer[oldest] = item
        oldest = (oldest + 1) % capacity
    }

    /// The kept items, oldest first.
    public var items: [RecordedItem<S>] {
        lock.lock()
        defer { lock.unlock() }
        return Array(buffer[oldest...] + buffer[..<oldest])
    }

    /// The state before the oldest kept item (the store's first state while nothing was dropped);
    /// nil before the store started.
    public var stateBeforeFirstItem: S? {
        lock.lock()
        defer { lock.unlock() }
        return stateBeforeOldest
    }

    /// The kept items as a recording file's contents (a header whose initial state is
    /// ``stateBeforeFirstItem``, then a line per item), which ``Recording`` reads.
    public func recordingData(snapshotInterval: Int = 100) -> Data {
        lock.lock()
        let items = Array(buffer[oldest...] + buffer[..<oldest])
        let initial = stateBeforeOldest
        let stateType = stateType
        let started = started
        lock.unlock()
        guard let initial else { return Data() }
        let encoder = RecordingEncoder<S>(snapshotInterval: snapshotInterval)
        var data = encoder.header(stateType: stateType, initialState: initial, started: started)
        for item in items {
            data.append(encoder.entry(item))
        }
        return data
    }

    /// Writes ``recordingData(snapshotInterval:)`` to `url`, replacing what is there.
    public func write(to url: URL, snapshotInterval: Int = 100) throws {
        try recordingData(snapshotInterval: snapshotInterval).write(to: url, options: .atomic)
    }
}
