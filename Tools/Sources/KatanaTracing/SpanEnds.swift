import Dispatch
import class Foundation.NSLock
import Tracing

/// Where ``StoreTracing`` ends its spans: off the store's threads, on a queue of its own, so that a
/// tracer whose `end` is slow (an exporter that blocks) never holds up a dispatch.
///
/// The time of the end is taken when the store asks for it, so a span's duration does not include
/// its wait here. At most `limit` spans wait; past that a span is dropped (never ended, so never
/// exported) and counted in ``droppedCount``.
// @unchecked: `waiting`, `draining` and `dropped` are only read or written with `lock` held; `queue`
// and `limit` are constants.
final class SpanEnds: @unchecked Sendable {
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "katana.tracing.span-ends")
    private let limit: Int
    private var waiting: [(span: any Span, at: DefaultTracerClock.Instant)] = []
    private var draining = false
    private var dropped = 0

    /// Ends spans on a queue of its own, with at most `limit` (at least 1) waiting their turn.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many spans were dropped since the store started because `limit` spans were waiting.
    var droppedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return dropped
    }

    /// Ends `span` as of now, on the queue; drops it when `limit` spans are waiting already.
    func end(_ span: any Span) {
        let now = DefaultTracerClock.now
        lock.lock()
        guard waiting.count < limit else {
            dropped += 1
            lock.unlock()
            return
        }
        waiting.append((span, now))
        let startsDraining = !draining
        draining = true
        lock.unlock()
        if startsDraining {
            queue.async { self.drain() }
        }
    }

    /// Ends the waiting spans, in the order they came, until none is left.
    private func drain() {
        while true {
            lock.lock()
            let batch = waiting
            waiting.removeAll(keepingCapacity: true)
            if batch.isEmpty {
                draining = false
            }
            lock.unlock()
            if batch.isEmpty {
                return
            }
            for entry in batch {
                entry.span.end(at: entry.at)
            }
        }
    }
}
