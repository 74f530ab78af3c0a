import class Foundation.NSLock
import Katana
import Tracing

/// The span of one side effect, opened when its body starts and ended with its outcome.
///
/// ``StoreTracing`` makes it when the side effect goes through the interceptors and puts it in
/// place of the item's dispatch context; the store hands that value to
/// ``Katana/DispatchContext/serviceContext``'s restore as the body starts, which opens the span
/// then (``started()``) and runs the body with the span's context as `ServiceContext.current`.
/// The store's report of the side effect's end ends it (``finish(_:)``).
// @unchecked: `span` and `ended` are only read or written with `lock` held; the rest are constants,
// and spans are safe to use from any thread.
final class SideEffectSpan: @unchecked Sendable {
    private let lock = NSLock()
    private let tracer: any Tracer
    private let name: String
    private let parent: ServiceContext
    private let ends: SpanEnds
    private var span: (any Span)?
    private var ended = false

    init(tracer: any Tracer, name: String, parent: ServiceContext, ends: SpanEnds) {
        self.tracer = tracer
        self.name = name
        self.parent = parent
        self.ends = ends
    }

    /// The span's context, for the body to run in: the span opens the first time it is asked.
    func started() -> ServiceContext {
        lock.lock()
        defer { lock.unlock() }
        if let span {
            return span.context
        }
        let opened = Self.startSpan(tracer, name, context: parent)
        span = opened
        return opened.context
    }

    /// Ends the span with how the side effect ended: `failed` records the error and sets the
    /// span's status to error, `cancelled` says what cancelled it. A side effect cancelled before
    /// its body began gets a span that starts and ends now, with `katana.side_effect.began` false.
    func finish(_ end: SideEffectEnd) {
        guard let span = takeForEnd() else { return }
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
        ends.end(span)
    }

    /// Ends the span of a side effect that was not passed on (`blocked` or `rejected` by a later
    /// interceptor): its body never runs, and no end comes.
    func finish(notRun outcome: String) {
        guard let span = takeForEnd() else { return }
        span.attributes["katana.side_effect.outcome"] = outcome
        span.attributes["katana.side_effect.began"] = false
        ends.end(span)
    }

    /// The span to end, opened now if the body never started it; nil when it has ended already.
    private func takeForEnd() -> (any Span)? {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return nil }
        ended = true
        if let span {
            return span
        }
        let opened = Self.startSpan(tracer, name, context: parent)
        span = opened
        return opened
    }

    /// A span named `name` under `context`, from `tracer`, whatever its type of span.
    static func startSpan(_ tracer: any Tracer, _ name: String, context: ServiceContext) -> any Span {
        tracer.startSpan(name, context: context, ofKind: .internal)
    }
}
