import Katana
import KatanaToolsSupport
import Tracing

/// An interceptor that traces the store's work with swift-distributed-tracing: a span per item, as a
/// child of the span of the code that dispatched it, and a span per side effect, from its body's
/// start to its end, under which what the side effect dispatches nests.
///
/// ```swift
/// let store = Store<AppState, AppDependencies>(
///     interceptors: Interceptors { StoreTracing() },
///     configuration: .init(dispatchContext: .serviceContext)
/// )
/// ```
///
/// It needs the store's dispatch context to be ``Katana/DispatchContext/serviceContext``: without
/// it every item's span is a root of its own, and a side effect's span covers no body (it opens
/// and ends when the side effect ends).
///
/// - The item's span is named after the item's type (`AddTodo`), with attributes
///   `katana.item.kind` (`updater`, `sideEffect`, `asyncSideEffect`, `other`),
///   `katana.item.origin`, `katana.item.sequence` and `katana.item.outcome` (`handled`, `blocked`,
///   `rejected`; an error thrown by a later interceptor is recorded on the span). It lasts while
///   the later interceptors run, and the updater is applied or the side effect's body runs, as
///   `next` does.
/// - A side effect's span, `<type> side effect`, is a child of its item's span. It opens as the
///   body starts, and the side effect runs inside it: for an `AsyncSideEffect` its whole task,
///   however long after the item's span ended. It ends when the store reports the side effect's
///   end, with `katana.side_effect.outcome`
///   (`succeeded`, `failed` with the error recorded and the status set to error, `cancelled` with
///   `katana.side_effect.cancelled_by`), or at once, `blocked` or `rejected`, when it is not passed on.
///
/// A span the tracer does not record (a no-op tracer, a trace sampled out) gets no attributes, and
/// a side effect under it no span of its own: it runs in the item's span's context, which keeps
/// the trace's id and sampling decision for what it calls.
///
/// The store never waits on the tracer's `end`: spans end on a queue of their own, as of the moment
/// the item or the side effect ended. When `pendingSpanLimit` spans wait there (a tracer whose
/// `end` blocks, an exporter that cannot keep up), further spans are dropped, not exported, and
/// counted in ``droppedSpanCount``.
public struct StoreTracing: Interceptor {
    private let givenTracer: (any Tracer)?
    private let ends: SpanEnds
    /// The tracer this store's copy uses, and its open side-effect spans; nil before ``start(in:)``.
    private var started: (tracer: any Tracer, spans: SideEffectSpans, types: ItemTypes)?

    /// Spans made by `tracer` (nil: the tracer `InstrumentationSystem` was bootstrapped with, as of
    /// when the store starts), with at most `pendingSpanLimit` spans waiting for the tracer to end
    /// them before further ones are dropped.
    public init(tracer: (any Tracer)? = nil, pendingSpanLimit: Int = 4096) {
        givenTracer = tracer
        ends = SpanEnds(limit: pendingSpanLimit)
    }

    /// How many spans were dropped, not ended, because `pendingSpanLimit` spans were waiting for
    /// the tracer; shared by every copy of this value.
    public var droppedSpanCount: Int {
        ends.droppedCount
    }

    /// Subscribes to the store's side-effect ends, which end the side effects' spans.
    public mutating func start(in context: any AnySideEffectContext) {
        let spans = SideEffectSpans()
        context.observeSideEffectEnds { end in spans.end(end) }
        started = (givenTracer ?? InstrumentationSystem.tracer, spans, ItemTypes())
    }

    /// Opens the item's span (and a side effect's) under the dispatching code's context, passes the
    /// item on inside it, and ends the item's span with its outcome.
    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        guard let started, let current = InterceptedItem.current else {
            try next(item)
            return
        }
        let parent = InterceptedItem.currentDispatchContext as? ServiceContext ?? .topLevel
        let (name, kind) = started.types.describe(item)
        let itemSpan = SideEffectSpan.startSpan(started.tracer, name, context: parent)
        guard itemSpan.isRecording else {
            // Not recorded (a no-op tracer, a trace sampled out): no attributes, no side-effect
            // span; what runs inside the item still carries the trace's context.
            InterceptedItem.setCurrentDispatchContext(itemSpan.context)
            defer { itemSpan.end() }
            try next(item)
            return
        }
        itemSpan.attributes["katana.item.kind"] = kind.rawValue
        itemSpan.attributes["katana.item.origin"] = String(describing: current.origin)
        itemSpan.attributes["katana.item.sequence"] = Int(truncatingIfNeeded: current.sequence)
        var runsSideEffect = false
        if kind == .sideEffect || kind == .asyncSideEffect {
            let span = SideEffectSpan(tracer: started.tracer, name: name + " side effect", parent: itemSpan.context, ends: ends)
            started.spans.keep(span, for: current.sequence)
            // The side effect's body, and what it dispatches, run inside its span, which opens as
            // the store restores this value around the body.
            InterceptedItem.setCurrentDispatchContext(span)
            runsSideEffect = true
        } else {
            InterceptedItem.setCurrentDispatchContext(itemSpan.context)
        }
        do {
            try next(item)
        } catch {
            let outcome = ItemOutcome.afterThrow
            finish(itemSpan, outcome, sideEffect: runsSideEffect ? current.sequence : nil, in: started.spans)
            itemSpan.recordError(error)
            ends.end(itemSpan)
            throw error
        }
        finish(itemSpan, ItemOutcome.afterNext, sideEffect: runsSideEffect ? current.sequence : nil, in: started.spans)
        ends.end(itemSpan)
    }

    /// Sets the item's outcome, and ends the span of a side effect that will not run.
    private func finish(_ span: any Span, _ outcome: ItemOutcome, sideEffect sequence: UInt64?, in spans: SideEffectSpans) {
        span.attributes["katana.item.outcome"] = outcome.rawValue
        if let sequence, outcome != .handled {
            spans.abandon(sequence, outcome: outcome.rawValue)
        }
    }
}
