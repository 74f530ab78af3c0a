import class Foundation.NSLock
import Katana
import Tracing

/// The spans of one store's side effects that have not ended, by the sequence of their item: opened
/// by ``StoreTracing`` when a side effect goes through it, ended when the store reports the side
/// effect's end (or when it was not passed on, so never runs).
// @unchecked: `open` is only read or written with `lock` held; spans are safe to use from any thread.
final class SideEffectSpans: @unchecked Sendable {
    private let lock = NSLock()
    private var open: [UInt64: any Span] = [:]

    /// How many spans wait for their side effect's end.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return open.count
    }

    /// Keeps `span` until the end of the side effect whose item has `sequence`.
    func keep(_ span: any Span, for sequence: UInt64) {
        lock.lock()
        open[sequence] = span
        lock.unlock()
    }

    /// Ends the span of the side effect that ended, with its outcome: `failed` records the error
    /// and sets the span's status to error, `cancelled` says what cancelled it.
    func end(_ end: SideEffectEnd) {
        guard let span = take(end.sequence) else { return }
        switch end.outcome {
        case .succeeded:
            span.attributes["katana.side_effect.outcome"] = "succeeded"
        case .failed(let error):
            span.attributes["katana.side_effect.outcome"] = "failed"
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: String(describing: error)))
        case .cancelled(let canceller):
            span.attributes["katana.side_effect.outcome"] = "cancelled"
            span.attributes["katana.side_effect.cancelled_by"] = canceller.rawValue
        }
        span.attributes["katana.side_effect.began"] = end.began
        span.end()
    }

    /// Ends the span of a side effect that was not passed on (blocked or rejected by a later
    /// interceptor): it will not run, and no end will come.
    func abandon(_ sequence: UInt64, outcome: String) {
        guard let span = take(sequence) else { return }
        span.attributes["katana.side_effect.outcome"] = outcome
        span.end()
    }

    private func take(_ sequence: UInt64) -> (any Span)? {
        lock.lock()
        defer { lock.unlock() }
        return open.removeValue(forKey: sequence)
    }
}
