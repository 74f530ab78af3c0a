import Foundation
import Katana
import KatanaTestSupport
import Testing

/// A store's dispatch context: captured where an item is dispatched (a task-local there), read by
/// interceptors, in place while the item's side effect runs (an async one's whole task), and so
/// carried by what the side effect dispatches.
@Suite struct DispatchContextTests {
    /// The request a test's dispatching code runs for.
    enum Request {
        @TaskLocal static var id: String?
    }

    struct Counter: State { var value = 0 }
    typealias CounterStore = Store<Counter, EmptySideEffectDependencyContainer>
    typealias Context = SideEffectContext<Counter, EmptySideEffectDependencyContainer>

    struct Bump: StateUpdater {
        func updateState(_ state: inout Counter) { state.value += 1 }
    }

    /// Notes the request it runs in, then dispatches a `Bump`.
    struct Note: SideEffect {
        let seen: LockedList<String>
        func sideEffect(_ context: Context) throws {
            seen.append("body \(Request.id ?? "none")")
            try context.dispatch(Bump()).wait(timeout: .seconds(30))
        }
    }

    /// Notes the request it runs in after each of several suspensions, and dispatches a `Bump`
    /// after each.
    struct AsyncNote: AsyncSideEffect {
        let seen: LockedList<String>
        func sideEffect(_ context: Context) async throws {
            for step in 1 ... 3 {
                try await Task.sleep(for: .milliseconds(2))
                await Task.yield()
                seen.append("step \(step) \(Request.id ?? "none")")
                try await context.dispatch(Bump()).settled()
            }
        }
    }

    /// Dispatches a `Bump` on behalf of another request, `context`.
    struct DispatchOnBehalf: SideEffect {
        let context: String
        func sideEffect(_ context: Context) throws {
            try context.withDispatchContext(self.context).dispatch(Bump()).wait(timeout: .seconds(30))
        }
    }

    /// A 2.x-style updater whose follow-up notes the request it runs in.
    struct BumpAndNote: FollowUpStateUpdater {
        let seen: LockedList<String>
        func updatedState(currentState: any State) -> any State {
            guard var counter = currentState as? Counter else { return currentState }
            counter.value += 1
            return counter
        }

        func followUp(previousState: any State, currentState: any State, context: any AnySideEffectContext) {
            seen.append("follow-up \(Request.id ?? "none")")
        }
    }

    /// Notes, for each item, its type and the dispatch context the interceptors see; puts
    /// `replacement` in place of a `Note`'s context when given.
    struct ContextWatcher: Interceptor {
        let seen: LockedList<String>
        var replacement: String?

        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            let context = InterceptedItem.currentDispatchContext as? String
            seen.append("\(type(of: item)) \(context ?? "none")")
            if let replacement, item is Note {
                #expect(InterceptedItem.setCurrentDispatchContext(replacement))
            }
            try next(item)
        }
    }

    /// Reads `Request.id` where an item is dispatched, and puts it back with `withValue`.
    static let requestContext = DispatchContext(
        capture: { Request.id },
        restore: { value, body in Request.$id.withValue(value as? String) { body() } },
        restoreAsync: { value, body in await Request.$id.withValue(value as? String) { await body() } }
    )

    static func store(
        watching seen: LockedList<String>, replacement: String? = nil, dispatchContext: DispatchContext? = requestContext
    ) -> CounterStore {
        CounterStore(
            interceptors: Interceptors { ContextWatcher(seen: seen, replacement: replacement) },
            configuration: .init(dispatchContext: dispatchContext)
        )
    }

    /// docs/Tracing.md's snippet, as it is there.
    @Test func theArticlesSnippet() async throws {
        let seen = LockedList<String>()
        let requestContext = DispatchContext(
            capture: { Request.id },
            restore: { value, body in Request.$id.withValue(value as? String) { body() } },
            restoreAsync: { value, body in await Request.$id.withValue(value as? String) { await body() } }
        )
        let store = CounterStore(
            interceptors: Interceptors { ContextWatcher(seen: seen) },
            configuration: .init(dispatchContext: requestContext)
        )
        try await Request.$id.withValue("r1") {
            try await store.dispatch(Note(seen: seen)).settled()
        }
        #expect(seen.all == ["Note r1", "body r1", "Bump r1"])
    }

    @Test func withoutADispatchContextItemsCarryNone() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen, dispatchContext: nil)
        try await Request.$id.withValue("r1") {
            try await store.dispatch(Note(seen: seen)).settled()
        }
        #expect(seen.all == ["Note none", "body none", "Bump none"])
    }

    @Test func interceptorsReadTheContextCapturedWhereTheItemWasDispatched() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen)
        try await Request.$id.withValue("r1") {
            try await store.dispatch(Bump()).settled()
        }
        try await store.dispatch(Bump()).settled()
        #expect(seen.all == ["Bump r1", "Bump none"])
        #expect(InterceptedItem.currentDispatchContext == nil, "nothing outside an interceptor's run")
        #expect(!InterceptedItem.setCurrentDispatchContext("elsewhere"))
    }

    @Test func aSideEffectRunsInsideItsItemsContext_andWhatItDispatchesCarriesIt() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen)
        try await Request.$id.withValue("r1") {
            try await store.dispatch(Note(seen: seen)).settled()
        }
        #expect(seen.all == ["Note r1", "body r1", "Bump r1"])
    }

    @Test func anAsyncSideEffectKeepsItsContextAfterEverySuspension() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen)
        try await Request.$id.withValue("r1") {
            try await store.dispatch(AsyncNote(seen: seen)).settled()
        }
        #expect(seen.all == [
            "AsyncNote r1", "step 1 r1", "Bump r1", "step 2 r1", "Bump r1", "step 3 r1", "Bump r1",
        ])
    }

    @Test func concurrentRequestsDoNotMix() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in 1 ... 20 {
                group.addTask {
                    try await Request.$id.withValue("r\(request)") {
                        try await store.dispatch(AsyncNote(seen: seen)).settled()
                    }
                }
            }
            try await group.waitForAll()
        }
        for request in 1 ... 20 {
            let lines = seen.all.filter { $0.hasSuffix(" r\(request)") }
            #expect(lines.count == 7, "request r\(request): \(lines)")
        }
        #expect(!seen.all.contains { $0.hasSuffix(" none") })
    }

    @Test func anInterceptorMayReplaceTheContextTheSideEffectRunsIn() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen, replacement: "span-of-note")
        try await Request.$id.withValue("r1") {
            try await store.dispatch(Note(seen: seen)).settled()
        }
        #expect(seen.all == ["Note r1", "body span-of-note", "Bump span-of-note"])
    }

    @Test func aFollowUpRunsInsideItsItemsContext() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen)
        try await Request.$id.withValue("r1") {
            try await store.dispatch(BumpAndNote(seen: seen)).settled()
        }
        #expect(seen.all == ["BumpAndNote r1", "follow-up r1"])
    }

    @Test func aSideEffectContextGivenAContextDispatchesWithIt() async throws {
        let seen = LockedList<String>()
        let store = Self.store(watching: seen)
        try await Request.$id.withValue("r1") {
            try await store.dispatch(DispatchOnBehalf(context: "r2")).settled()
        }
        #expect(seen.all == ["DispatchOnBehalf r1", "Bump r2"])
    }

    @Test func aRestoreThatSkipsItsBodyRejectsTheItemAndTheStoreGoesOn() async throws {
        let seen = LockedList<String>()
        let skipping = DispatchContext(capture: { Request.id }, restore: { _, _ in }, restoreAsync: { _, _ in })
        let store = Self.store(watching: seen, dispatchContext: skipping)
        let error = await #expect(throws: KatanaError.self) {
            try await Request.$id.withValue("r1") {
                try await store.dispatch(Note(seen: seen)).settled()
            }
        }
        #expect(error == .dispatchContextNotRestored(item: String(reflecting: Note.self)))
        #expect(error?.description.contains("call their body exactly once") == true)
        await #expect(throws: KatanaError.dispatchContextNotRestored(item: String(reflecting: AsyncNote.self))) {
            try await Request.$id.withValue("r1") {
                try await store.dispatch(AsyncNote(seen: seen)).settled()
            }
        }
        // An item without a captured context runs as usual.
        try await store.dispatch(Note(seen: seen)).settled()
        #expect(seen.all.contains("body none"))
        #expect(!seen.all.contains("body r1"))
    }
}
