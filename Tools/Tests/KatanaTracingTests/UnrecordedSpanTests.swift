import Katana
import KatanaTestSupport
import KatanaTracing
import Testing
import Tracing

/// A tracer that records nothing (a no-op tracer, a trace sampled out): items and side effects run
/// as usual, and what a side effect does still sees the dispatching code's context.
@Suite struct UnrecordedSpanTests {
    enum RequestKey: ServiceContextKey {
        typealias Value = String
    }

    struct Count: State {
        var value = 0
    }

    struct Add: StateUpdater {
        func updateState(_ state: inout Count) { state.value += 1 }
    }

    /// Notes the request its body runs for, then adds one.
    struct Note: AsyncSideEffect {
        let seen: LockedList<String>
        func sideEffect(_ context: SideEffectContext<Count, EmptySideEffectDependencyContainer>) async throws {
            try await Task.sleep(for: .milliseconds(1))
            seen.append(ServiceContext.current?[RequestKey.self] ?? "none")
            try await context.dispatch(Add()).value
        }
    }

    @Test func aSideEffectUnderANoOpTracerRunsInTheDispatchingContext() async throws {
        let tracing = StoreTracing(tracer: NoOpTracer())
        let store = Store<Count, EmptySideEffectDependencyContainer>(
            interceptors: Interceptors { tracing },
            configuration: .init(dispatchContext: .serviceContext)
        )
        let seen = LockedList<String>()
        var request = ServiceContext.topLevel
        request[RequestKey.self] = "r-17"
        try await ServiceContext.withValue(request) {
            try await store.dispatch(Note(seen: seen)).value
        }
        #expect(seen.all == ["r-17"])
        #expect(store.state.value == 1)
        #expect(tracing.droppedSpanCount == 0)
    }
}
