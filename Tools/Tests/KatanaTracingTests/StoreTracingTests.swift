import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Katana
import KatanaTestSupport
import KatanaTracing
import Testing
import Tracing

/// `StoreTracing` with the `serviceContext` dispatch context: a request handler of a real server
/// (Hummingbird, on a loopback port) dispatches an async side effect that dispatches two updaters;
/// the spans form the tree request → item → side effect → its two items, with their attributes and
/// end states, and two requests' trees do not mix.
@Suite struct StoreTracingTests {
    struct Orders: State {
        var reserved = 0
        var charged = 0
    }

    typealias OrderStore = Store<Orders, EmptySideEffectDependencyContainer>
    typealias Context = SideEffectContext<Orders, EmptySideEffectDependencyContainer>

    struct Reserve: StateUpdater {
        func updateState(_ state: inout Orders) { state.reserved += 1 }
    }

    struct Charge: StateUpdater {
        func updateState(_ state: inout Orders) { state.charged += 1 }
    }

    struct PaymentDeclined: Error, CustomStringConvertible {
        var description: String { "the card was declined" }
    }

    /// Reserves, then charges, each after a suspension; fails after reserving when `declines`;
    /// waits until cancelled after reserving when `hangs`.
    struct PlaceOrder: AsyncSideEffect {
        var declines = false
        var hangs = false
        func sideEffect(_ context: Context) async throws {
            try await Task.sleep(for: .milliseconds(5))
            try await context.dispatch(Reserve()).value
            if declines { throw PaymentDeclined() }
            if hangs { try await Task.sleep(for: .seconds(60)) }
            try await Task.sleep(for: .milliseconds(5))
            try await context.dispatch(Charge()).value
        }
    }

    /// A server whose `/order`, `/declined` and `/hung` handlers each dispatch a `PlaceOrder` inside
    /// a request span; `/hung` cancels its side effect once it has reserved.
    static func application(store: OrderStore, tracer: InMemoryTracer) -> some ApplicationProtocol {
        let router = Router()
        for (path, order) in [("order", PlaceOrder()), ("declined", PlaceOrder(declines: true)), ("hung", PlaceOrder(hangs: true))] {
            router.get(RouterPath(stringLiteral: path)) { _, _ -> String in
                try await tracer.withSpan("GET /\(path)", ofKind: .server) { _ in
                    let promise = store.dispatch(order)
                    if order.hangs {
                        try await poll("the hung order to reserve", timeout: defaultTestTimeout) { store.state.reserved > 0 }
                        promise.cancel()
                    }
                    do {
                        try await promise.value
                        return "placed"
                    } catch {
                        return "not placed: \(error)"
                    }
                }
            }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// A store traced as docs/Tracing.md shows.
    static func tracedStore(_ tracer: InMemoryTracer) -> OrderStore {
        let store = OrderStore(
            interceptors: Interceptors { StoreTracing(tracer: tracer) },
            configuration: .init(dispatchContext: .serviceContext)
        )
        return store
    }

    /// The finished spans once `count` have ended.
    static func spans(of tracer: InMemoryTracer, count: Int) async throws -> [FinishedInMemorySpan] {
        try await poll("\(count) spans to end", timeout: defaultTestTimeout) { tracer.finishedSpans.count >= count }
        return tracer.finishedSpans
    }

    @Test func aRequestsSpanHasItsItemsSideEffectAndWhatTheSideEffectDispatchedBelowIt() async throws {
        let tracer = InMemoryTracer()
        let store = Self.tracedStore(tracer)
        try await Self.application(store: store, tracer: tracer).test(.live) { client in
            try await client.execute(uri: "/order", method: .get) { #expect(String(buffer: $0.body) == "placed") }
        }
        let spans = try await Self.spans(of: tracer, count: 5)
        let tree = SpanTree(spans)
        let request = try #require(tree.named("GET /order").first)
        let item = try #require(tree.only(childOf: request))
        #expect(item.operationName == "PlaceOrder")
        #expect(text(item, "katana.item.kind") == "asyncSideEffect")
        #expect(text(item, "katana.item.outcome") == "handled")
        #expect(text(item, "katana.item.origin") == "outside")
        let sideEffect = try #require(tree.only(childOf: item))
        #expect(sideEffect.operationName == "PlaceOrder side effect")
        #expect(text(sideEffect, "katana.side_effect.outcome") == "succeeded")
        #expect(sideEffect.errors.isEmpty)
        let dispatched = tree.children(of: sideEffect)
        #expect(dispatched.map(\.operationName) == ["Reserve", "Charge"])
        #expect(dispatched.allSatisfy { text($0, "katana.item.kind") == "updater" })
        #expect(dispatched.allSatisfy { text($0, "katana.item.origin")?.hasPrefix("side effect ") == true })
        #expect(spans.allSatisfy { $0.traceID == request.traceID })
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aFailingSideEffectsSpanRecordsItsError() async throws {
        let tracer = InMemoryTracer()
        let store = Self.tracedStore(tracer)
        try await Self.application(store: store, tracer: tracer).test(.live) { client in
            try await client.execute(uri: "/declined", method: .get) {
                #expect(String(buffer: $0.body) == "not placed: the card was declined")
            }
        }
        let tree = SpanTree(try await Self.spans(of: tracer, count: 4))
        let request = try #require(tree.named("GET /declined").first)
        let item = try #require(tree.only(childOf: request))
        let sideEffect = try #require(tree.only(childOf: item))
        #expect(text(sideEffect, "katana.side_effect.outcome") == "failed")
        #expect(sideEffect.errors.map { String(describing: $0.error) } == ["the card was declined"])
        #expect(sideEffect.status?.code == .error)
        #expect(tree.children(of: sideEffect).map(\.operationName) == ["Reserve"])
    }

    @Test func aCancelledSideEffectsSpanSaysWhatCancelledIt() async throws {
        let tracer = InMemoryTracer()
        let store = Self.tracedStore(tracer)
        try await Self.application(store: store, tracer: tracer).test(.live) { client in
            try await client.execute(uri: "/hung", method: .get) { #expect(String(buffer: $0.body).hasPrefix("not placed")) }
        }
        let tree = SpanTree(try await Self.spans(of: tracer, count: 4))
        let request = try #require(tree.named("GET /hung").first)
        let item = try #require(tree.only(childOf: request))
        let sideEffect = try #require(tree.only(childOf: item))
        #expect(text(sideEffect, "katana.side_effect.outcome") == "cancelled")
        #expect(text(sideEffect, "katana.side_effect.cancelled_by") == "promise")
        #expect(tree.children(of: sideEffect).map(\.operationName) == ["Reserve"])
    }

    @Test func twoConcurrentRequestsTreesDoNotMix() async throws {
        let tracer = InMemoryTracer()
        let store = Self.tracedStore(tracer)
        try await Self.application(store: store, tracer: tracer).test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0 ..< 2 {
                    group.addTask {
                        try await client.execute(uri: "/order", method: .get) { #expect(String(buffer: $0.body) == "placed") }
                    }
                }
                try await group.waitForAll()
            }
        }
        let tree = SpanTree(try await Self.spans(of: tracer, count: 10))
        let requests = tree.named("GET /order")
        #expect(requests.count == 2)
        #expect(Set(requests.map(\.traceID)).count == 2)
        for request in requests {
            let item = try #require(tree.only(childOf: request))
            let sideEffect = try #require(tree.only(childOf: item))
            #expect(tree.children(of: sideEffect).map(\.operationName) == ["Reserve", "Charge"])
            #expect(tree.descendants(of: request).allSatisfy { $0.traceID == request.traceID })
            #expect(tree.descendants(of: request).count == 4)
        }
    }

    @Test func withoutTheDispatchContextEachItemIsARootOfItsOwn() async throws {
        let tracer = InMemoryTracer()
        let store = OrderStore(interceptors: Interceptors { StoreTracing(tracer: tracer) })
        try await tracer.withSpan("request") { _ in
            try await store.dispatch(PlaceOrder()).settled()
        }
        let tree = SpanTree(try await Self.spans(of: tracer, count: 5))
        let item = try #require(tree.named("PlaceOrder").first)
        #expect(item.parentSpanID == nil)
    }

    /// The string attribute `key` of `span`; nil when it has none, or one of another type.
    func text(_ span: FinishedInMemorySpan, _ key: String) -> String? {
        guard case .string(let value)? = span.attributes[key]?.toSpanAttribute() else { return nil }
        return value
    }

    /// Holds each item up for 50 ms before passing it on; blocks `PlaceOrder`s when `blocks`.
    struct SlowGate: Interceptor {
        var blocks = false
        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            Thread.sleep(forTimeInterval: 0.05)
            if blocks, item is PlaceOrder { return }
            try next(item)
        }
    }

    @Test func aSideEffectsSpanStartsWithItsBody_afterTheInterceptorsThatRunBeforeIt() async throws {
        let tracer = InMemoryTracer()
        let store = OrderStore(
            interceptors: Interceptors {
                StoreTracing(tracer: tracer)
                SlowGate()
            },
            configuration: .init(dispatchContext: .serviceContext)
        )
        try await tracer.withSpan("request") { _ in
            try await store.dispatch(PlaceOrder()).settled()
        }
        let tree = SpanTree(try await Self.spans(of: tracer, count: 5))
        let item = try #require(tree.named("PlaceOrder").first)
        let sideEffect = try #require(tree.only(childOf: item))
        let held = sideEffect.startInstant.nanosecondsSinceEpoch - item.startInstant.nanosecondsSinceEpoch
        #expect(held >= 50_000_000, "the side effect's span opened \(held) ns after its item's, before the gate let it through")
        #expect(text(sideEffect, "katana.side_effect.outcome") == "succeeded")
        #expect(tree.children(of: sideEffect).map(\.operationName) == ["Reserve", "Charge"])
    }

    @Test func aSideEffectThatIsNotPassedOnGetsASpanThatSaysSo() async throws {
        let tracer = InMemoryTracer()
        let store = OrderStore(
            interceptors: Interceptors {
                StoreTracing(tracer: tracer)
                SlowGate(blocks: true)
            },
            configuration: .init(dispatchContext: .serviceContext)
        )
        await #expect(throws: KatanaError.blockedByInterceptor(item: String(reflecting: PlaceOrder.self))) {
            try await store.dispatch(PlaceOrder()).settled()
        }
        let tree = SpanTree(try await Self.spans(of: tracer, count: 2))
        let item = try #require(tree.named("PlaceOrder").first)
        #expect(text(item, "katana.item.outcome") == "blocked")
        let sideEffect = try #require(tree.only(childOf: item))
        #expect(text(sideEffect, "katana.side_effect.outcome") == "blocked")
        #expect(tree.children(of: sideEffect).isEmpty)
    }

    /// Finished spans by parent.
    struct SpanTree {
        let spans: [FinishedInMemorySpan]

        init(_ spans: [FinishedInMemorySpan]) {
            self.spans = spans.sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
        }

        func named(_ name: String) -> [FinishedInMemorySpan] {
            spans.filter { $0.operationName == name }
        }

        /// The children of `parent`, in the order they started.
        func children(of parent: FinishedInMemorySpan) -> [FinishedInMemorySpan] {
            spans.filter { $0.parentSpanID == parent.spanID && $0.traceID == parent.traceID }
        }

        /// The one child of `parent`; nil when it has none or several.
        func only(childOf parent: FinishedInMemorySpan) -> FinishedInMemorySpan? {
            let children = children(of: parent)
            return children.count == 1 ? children[0] : nil
        }

        func descendants(of parent: FinishedInMemorySpan) -> [FinishedInMemorySpan] {
            children(of: parent).flatMap { [$0] + descendants(of: $0) }
        }
    }
}
