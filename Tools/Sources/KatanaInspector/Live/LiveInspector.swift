import Foundation
import Katana
import KatanaRecording

/// Serves the inspector's page for a running store: a ``RecordingSink`` for the store's
/// ``StoreRecorder``, whose items appear on the page as they are recorded.
///
/// ```swift
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors {
///     StoreRecorder(to: LiveInspector<AppState>())   // http://127.0.0.1:7766/
/// })
/// ```
///
/// The store never waits for it: items are encoded on a queue of the inspector's own, and if it
/// falls behind, newer items are dropped and the page shows a gap. It keeps the last
/// ``InspectorConfiguration/liveItemLimit`` items, within about
/// ``InspectorConfiguration/liveHistoryByteLimit`` bytes. It serves until ``stop()`` is called or it is
/// released; a configuration that cannot serve is reported on standard error and by ``serving()``.
public final class LiveInspector<S: State>: RecordingSink, Sendable {
    /// The state type of the store it shows.
    public typealias StateType = S

    /// How it serves.
    public let configuration: InspectorConfiguration
    private let stream: RecordingStream<S>
    private let source: HistorySource
    private let server: Result<InspectorServer, any Error>
    private let task: Locked<Task<Void, Never>?>
    private let address = ServingAddress()

    /// Starts serving the page with `configuration` (by default on 127.0.0.1, port 7766).
    public init(configuration: InspectorConfiguration = InspectorConfiguration()) {
        self.configuration = configuration
        let source = HistorySource(nil)
        self.source = source
        let feed = LiveFeed(
            source: source, limit: configuration.liveItemLimit, byteLimit: configuration.liveHistoryByteLimit,
            maximumLineLength: configuration.maximumLineLength
        )
        // Lines carry the whole state only at the start and after a gap: the history rebuilds every
        // state from the changes, which share their parts with the states it keeps, where a whole
        // state every hundred lines would be written, read and kept as a copy of its own.
        stream = RecordingStream(
            snapshotInterval: .max, bufferByteLimit: configuration.liveBufferByteLimit, label: "KatanaInspector.LiveInspector"
        ) { lines in
            feed.take(lines)
        }
        server = Result { try InspectorServer(source: source, configuration: configuration) }
        task = Locked(nil)
        switch server {
        case .success(let server):
            let started = Task { [address] in
                do {
                    try await server.run { url in
                        address.settle(.success(url))
                    }
                    address.settle(.failure(CancellationError()))
                } catch {
                    TerminalText.report("KatanaInspector: the live inspector stopped: ", escaping: error)
                    address.settle(.failure(error))
                }
            }
            task.withLock { $0 = started }
        case .failure(let error):
            TerminalText.report("KatanaInspector: the live inspector cannot serve: ", escaping: error)
            address.settle(.failure(error))
        }
    }

    deinit {
        stop()
    }

    /// The store started: its state type and its state before any item.
    public func begin(stateType: String, initialState: S) {
        stream.begin(stateType: stateType, initialState: initialState)
    }

    /// Takes one recorded item (queued: the store does not wait).
    public func append(_ item: RecordedItem<S>) {
        stream.append(item)
    }

    /// Takes how one of the recorded side effects ended (queued, as items are): the page shows it
    /// on the side effect's row, also when it comes long after the row.
    public func append(_ end: RecordedEnd) {
        stream.append(end)
    }

    /// The page's address, once it is served; throws what stopped it from serving.
    public func serving() async throws -> URL {
        try await address.value()
    }

    /// Waits until every item recorded so far is on the page's side (for tests and tools).
    public func flush() {
        stream.flush()
    }

    /// How many items the page can show (flush first to include every item recorded so far).
    public var itemCount: Int {
        source.history?.summary.count ?? 0
    }

    /// The position of the newest item the page can show; 0 before any.
    public var lastPosition: UInt64 {
        source.history?.summary.lastPosition ?? 0
    }

    /// How many items were dropped because the inspector fell behind.
    public var droppedCount: UInt64 {
        stream.droppedCount
    }

    /// About how many bytes the history holds, as it counts them against
    /// ``InspectorConfiguration/liveHistoryByteLimit`` (a gauge a service may export).
    public var historyByteCount: Int {
        source.history?.byteCount ?? 0
    }

    /// How many pages' live-stream connections are open.
    var openLiveConnections: Int {
        (try? server.get())?.openLiveConnections ?? 0
    }

    /// Stops serving; the page's connections close.
    public func stop() {
        task.withLock { $0 }?.cancel()
    }
}
