import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

// Katana 3.x's `AnySideEffectContext.awaitDispatch(_:)`: dispatch from a side effect and block until
// the item has been handled, with the deadline rules of `wait(timeout:)`.

/// Awaits `AddAction(amount:)` and returns the counter it reads right after.
@available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
private struct AwaitAddThenRead: ReturningSideEffect {
    let amount: Int
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        try context.awaitDispatch(AddAction(amount: amount))
        try context.awaitDispatch(AppendUpdater(tag: "after \(amount)"))
        return (context.getAnyState() as? LegacyState)?.counter ?? -1
    }
}

/// Returns `value`, or throws `TestError(code: value)` when `value` is negative.
private struct Answer: ReturningSideEffect {
    let value: Int
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        if value < 0 {
            throw TestError(code: value)
        }
        return value
    }
}

/// Returns `value` from a task.
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
private struct AsyncAnswer: AsyncSideEffect {
    let value: Int
    func sideEffect(_ context: SideEffectContext<LegacyState, LegacyDependencies>) async throws -> Int {
        value
    }
}

/// Runs `body` with its context and returns what it returns (the side effect under test).
private struct Run<Value: Sendable>: ReturningSideEffect {
    let body: @Sendable (any AnySideEffectContext) throws -> Value
    func sideEffect(_ context: any AnySideEffectContext) throws -> Value {
        try body(context)
    }
}

/// Blocks its worker until `gate` is signalled (bounded), so an awaiting side effect times out.
private struct Held: ReturningSideEffect {
    let gate: DispatchSemaphore
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        _ = gate.wait(timeout: .now() + 30)
        return 0
    }
}

/// An updater whose interceptor awaits a dispatch (on the store's queue).
private struct AwaitInInterceptor: StateUpdater {
    func updateState(_ state: inout LegacyState) {}
}

@Suite struct AwaitDispatchTests {
    private let timeout: Duration = .seconds(10)

    @available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
    @Test func awaitDispatch_ofUpdaters_returnsOnceTheirStateIsStored() async throws {
        let store = makeStore()
        let counter = try await store.dispatch(AwaitAddThenRead(amount: 3)).settled()
        #expect(counter == 3)
        #expect(store.state.log == ["after 3"])
    }

    /// Async, and awaiting the outer promise (with a deadline) without blocking: the async side
    /// effect's task needs a thread of the cooperative pool, which blocking waits in parallel tests
    /// could hold. The side effect that blocks in `awaitDispatch` runs on a worker of the store's own.
    @available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
    @Test func awaitDispatch_ofReturningAndAsyncSideEffects_givesTheirValues() async throws {
        let store = makeStore()
        let values = try await store.dispatch(Run { context in
            let returned: Int = try context.awaitDispatch(Answer(value: 4))
            let awaited: Int = try context.awaitDispatch(AsyncAnswer(value: 5), timeout: .seconds(10))
            return [returned, awaited]
        }).settled()
        #expect(values == [4, 5])
    }

    @available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
    @Test func awaitDispatch_ofAFailingSideEffect_throwsItsError() async throws {
        let store = makeStore()
        let reached = LockedList<String>()
        let outer = store.dispatch(Run { context -> Int in
            let value = try context.awaitDispatch(Answer(value: -7))
            reached.append("after the failure")
            return value
        })
        await #expect(throws: TestError(code: -7)) { try await outer.settled() }
        #expect(reached.all.isEmpty)
    }

    @available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
    @Test func awaitDispatch_ofAnExistentialItem_handlesItAndThrowsItsError() async throws {
        let store = makeStore()
        let items: [any Dispatchable] = [AppendAction(tag: "legacy"), AppendUpdater(tag: "modern"), Answer(value: 1)]
        try await store.dispatch(Run { context in
            for item in items {
                try context.awaitDispatch(item)
            }
        }).settled()
        #expect(store.state.log == ["legacy", "modern"])

        let failing: any Dispatchable = Answer(value: -2)
        let outer = store.dispatch(Run { context in try context.awaitDispatch(failing) })
        await #expect(throws: TestError(code: -2)) { try await outer.settled() }
    }

    @available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
    @Test func awaitDispatch_pastItsDeadline_throwsWaitTimedOut() async throws {
        let store = makeStore()
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let outer = store.dispatch(Run { context in
            try context.awaitDispatch(Held(gate: gate), timeout: .milliseconds(50))
        })
        await #expect(throws: KatanaError.waitTimedOut(after: .milliseconds(50))) { try await outer.settled() }
    }

    @available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
    @Test func awaitDispatch_onTheStoresQueue_throwsWaitOnStoreQueueAtOnce() async throws {
        let awaiting: StoreInterceptor = { context in { next in { item in
            if item is AwaitInInterceptor {
                try context.awaitDispatch(AddAction(amount: 1), timeout: .seconds(60))
            }
            try next(item)
        } } }
        let store = makeStore(interceptors: [awaiting])
        let promise = store.dispatch(AwaitInInterceptor())
        // At once: a wait would have ended with `waitTimedOut` at its 60 s deadline instead.
        await #expect(throws: KatanaError.waitOnStoreQueue) { try await promise.settled() }
        // The item was dispatched before the wait refused; it is handled after the interceptor.
        try await settle(store)
        #expect(store.state.counter == 1)
    }
}
