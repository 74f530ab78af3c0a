import Dispatch
import InMemoryTracing
import Katana
import KatanaTestSupport
import KatanaTracing
import Testing
import Tracing

/// A tracer whose `end` blocks (an exporter that cannot keep up) never makes the store wait: spans
/// past `pendingSpanLimit` are dropped and counted, and those that waited end once the tracer does.
@Suite struct SlowTracerTests {
    struct Count: State {
        var value = 0
    }

    struct Add: StateUpdater {
        func updateState(_ state: inout Count) { state.value += 1 }
    }

    /// An in-memory tracer whose spans' `end` waits until the gate opens (or `defaultTestTimeout`
    /// passes, so that a failing test does not leave a thread blocked for ever).
    struct GatedTracer: Tracer {
        let inner = InMemoryTracer()
        let gate = DispatchSemaphore(value: 0)
        /// How many `end`s have started waiting at the gate.
        let waitingAtGate = LockedValue(0)

        func startSpan<Instant: TracerInstant>(
            _ operationName: String,
            context: @autoclosure () -> ServiceContext,
            ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant,
            function: String,
            file fileID: String,
            line: UInt
        ) -> GatedSpan {
            let span = inner.startSpan(
                operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line
            )
            return GatedSpan(inner: span, tracer: self)
        }

        /// Opens the gate for every `end` waiting now or later.
        func open() {
            for _ in 0..<1_000 { gate.signal() }
        }

        func forceFlush() {}

        func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
        where Extract.Carrier == Carrier {}

        func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
        where Inject.Carrier == Carrier {}
    }

    struct GatedSpan: Span {
        let inner: InMemorySpan
        let tracer: GatedTracer

        var context: ServiceContext { inner.context }
        var isRecording: Bool { inner.isRecording }
        var operationName: String {
            get { inner.operationName }
            nonmutating set { inner.operationName = newValue }
        }
        var attributes: SpanAttributes {
            get { inner.attributes }
            nonmutating set { inner.attributes = newValue }
        }
        func setStatus(_ status: SpanStatus) { inner.setStatus(status) }
        func addEvent(_ event: SpanEvent) { inner.addEvent(event) }
        func addLink(_ link: SpanLink) { inner.addLink(link) }
        func recordError(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> some TracerInstant) {
            inner.recordError(error, attributes: attributes, at: instant())
        }
        func end(at instant: @autoclosure () -> some TracerInstant) {
            tracer.waitingAtGate.withLock { $0 += 1 }
            _ = tracer.gate.wait(timeout: .now() + .seconds(Int(defaultTestTimeout.components.seconds)))
            inner.end(at: instant())
        }
    }

    @Test func aTracerWhoseEndBlocksDropsSpansPastTheLimitAndNeverHoldsUpADispatch() async throws {
        let tracer = GatedTracer()
        let tracing = StoreTracing(tracer: tracer, pendingSpanLimit: 4)
        let store = Store<Count, EmptySideEffectDependencyContainer>(
            interceptors: Interceptors { tracing },
            configuration: .init(dispatchContext: .serviceContext)
        )
        defer { tracer.open() }
        // Fifty items, each awaited, while the tracer holds its first `end`: every one is applied.
        try await withTimeout("fifty items through a store whose tracer blocks") {
            for _ in 0..<50 {
                try await store.dispatch(Add()).value
            }
        }
        #expect(store.state.value == 50)
        try await poll("the first end to wait at the gate") { tracer.waitingAtGate.value == 1 }
        // One span is at the gate, at most two batches of `pendingSpanLimit` were taken in: the
        // rest were dropped.
        let dropped = tracing.droppedSpanCount
        #expect(dropped >= 50 - 2 * 4 && dropped < 50)
        #expect(tracer.inner.finishedSpans.isEmpty)

        tracer.open()
        try await poll("the spans that waited to end") { tracer.inner.finishedSpans.count == 50 - dropped }
        #expect(tracer.inner.finishedSpans.allSatisfy { $0.operationName == "Add" })
    }

    @Test func withAPromptTracerNoSpanIsDropped() async throws {
        let tracer = InMemoryTracer()
        let tracing = StoreTracing(tracer: tracer, pendingSpanLimit: 4)
        let store = Store<Count, EmptySideEffectDependencyContainer>(
            interceptors: Interceptors { tracing },
            configuration: .init(dispatchContext: .serviceContext)
        )
        for _ in 0..<50 {
            try await store.dispatch(Add()).value
            try await poll("the item's span to end") { tracer.finishedSpans.count == store.state.value }
        }
        #expect(tracing.droppedSpanCount == 0)
    }
}
