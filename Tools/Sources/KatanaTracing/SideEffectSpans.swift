import class Foundation.NSLock
import Katana

/// The spans of one store's side effects that have not ended, by the sequence of their item: kept
/// by ``StoreTracing`` when a side effect goes through it, ended when the store reports the side
/// effect's end (or when it was not passed on, so never runs).
// @unchecked: `open` is only read or written with `lock` held.
final class SideEffectSpans: @unchecked Sendable {
    private let lock = NSLock()
    private var open: [UInt64: SideEffectSpan] = [:]

    /// How many spans wait for their side effect's end.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return open.count
    }

    /// Keeps `span` until the end of the side effect whose item has `sequence`.
    func keep(_ span: SideEffectSpan, for sequence: UInt64) {
        lock.lock()
        open[sequence] = span
        lock.unlock()
    }

    /// Ends the span of the side effect that ended.
    func end(_ end: SideEffectEnd) {
        take(end.sequence)?.finish(end)
    }

    /// Ends the span of a side effect that was not passed on.
    func abandon(_ sequence: UInt64, outcome: String) {
        take(sequence)?.finish(notRun: outcome)
    }

    private func take(_ sequence: UInt64) -> SideEffectSpan? {
        lock.lock()
        defer { lock.unlock() }
        return open.removeValue(forKey: sequence)
    }
}
