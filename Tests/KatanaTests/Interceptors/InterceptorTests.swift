import Dispatch
import Foundation
import Testing
@testable import Katana

/// The short type name of an item, for readable expectations.
private func shortName(_ item: any Dispatchable) -> String {
    String(describing: type(of: item))
}

/// Passes every item on, recording `label:TypeName`.
private func recording(_ label: String, into events: Recorder<String>) -> StoreInterceptor {
    interceptor { item, next in
        events.append("\(label):\(shortName(item))")
        try next(item)
    }
}

/// Replaces items matching `match` with `replacement(item)`; passes the rest on.
private func replacing(
    where match: @escaping @Sendable (any Dispatchable) -> Bool,
    with replacement: @escaping @Sendable (any Dispatchable) -> any Dispatchable
) -> StoreInterceptor {
    interceptor { item, next in
        try next(match(item) ? replacement(item) : item)
    }
}

private func isIncrement(by amount: Int) -> @Sendable (any Dispatchable) -> Bool {
    { ($0 as? Increment)?.amount == amount }
}

/// Store semantics 4: interceptors.
@Suite struct InterceptorTests {
    @Test func interceptors_runInGivenOrderBeforeItemIsHandled() throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("A", into: events), recording("B", into: events), recording("C", into: events),
        ])
        try store.dispatch(RecordApplied(label: "handled", events: events)).wait(timeout: .seconds(10))
        #expect(events.values == ["A:RecordApplied", "B:RecordApplied", "C:RecordApplied", "handled"])
    }

    @Test func interceptors_seeSideEffectsAndItemsTheyDispatch() throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [recording("log", into: events)])
        try store.dispatch(IncrementLater(amount: 2)).wait(timeout: .seconds(10))
        #expect(events.values == ["log:IncrementLater", "log:Increment"])
        #expect(store.state.counter == 2)
    }

    @Test func blockedUpdater_resolvesWithStateUnchanged() throws {
        let blocker = interceptor { item, next in
            if isIncrement(by: 100)(item) { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker], initial: CounterState(counter: 5))
        let heard = Recorder<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        try store.dispatch(Increment(amount: 100)).wait(timeout: .seconds(10))
        #expect(store.state == CounterState(counter: 5))
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 6)
        // Only the handled updater reaches the listeners.
        #expect(eventually { heard.values.count == 1 })
        #expect(heard.values == [Change(5, 6)])
    }

    @Test func blockedSideEffect_rejectsWithBlockedByInterceptor() throws {
        let blocker = interceptor { item, next in
            if item is IncrementLater || item is ReadCounter { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker])
        let error = rejection(of: store.dispatch(IncrementLater(amount: 3)))
        #expect(error?.katana == .blockedByInterceptor(item: "KatanaTests.IncrementLater"))
        #expect(error.map { "\($0)" }?.contains("KatanaTests.IncrementLater") == true)
        let returning = rejection(of: store.dispatch(ReadCounter()))
        #expect(returning?.katana == .blockedByInterceptor(item: "KatanaTests.ReadCounter"))
        #expect(store.state.counter == 0)
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 1)
    }

    @Test func blockedAsyncSideEffect_rejectsWithBlockedByInterceptor() async throws {
        let blocker = interceptor { item, next in
            if item is AsyncAdd { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker])
        await #expect(throws: KatanaError.blockedByInterceptor(item: "KatanaTests.AsyncAdd")) {
            try await withTimeout { try await store.dispatch(AsyncAdd(amount: 1)).value }
        }
        #expect(store.state.counter == 0)
    }

    @Test func throwingInterceptor_rejectsWithItsErrorAndItemIsNotHandled() throws {
        let thrower = interceptor { item, next in
            if isIncrement(by: 9)(item) || item is IncrementLater { throw TestError(code: 9) }
            try next(item)
        }
        let store = makeStore(interceptors: [thrower])
        #expect(rejection(of: store.dispatch(Increment(amount: 9))) as? TestError == TestError(code: 9))
        #expect(rejection(of: store.dispatch(IncrementLater(amount: 1))) as? TestError == TestError(code: 9))
        #expect(store.state == CounterState())
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [2])
    }

    @Test func replacement_updaterWithSideEffect_isHandledAsSideEffectAndSettlesOriginalPromise() throws {
        let store = makeStore(interceptors: [
            replacing(where: isIncrement(by: 50), with: { _ in IncrementLater(amount: 2) }),
        ])
        try store.dispatch(Increment(amount: 50)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [2])
    }

    @Test func replacement_sideEffectWithUpdater_isAppliedAndSettlesOriginalPromise() throws {
        let store = makeStore(interceptors: [
            replacing(where: { $0 is Fails }, with: { _ in Increment(amount: 3) }),
        ])
        try store.dispatch(Fails(code: 1)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [3])
    }

    @Test func replacement_returningSideEffect_originalPromiseGetsReplacementValue() throws {
        let store = makeStore(interceptors: [
            replacing(where: { $0 is ReadCounter }, with: { _ in Constant(value: 42) }),
        ])
        #expect(try store.dispatch(ReadCounter()).wait(timeout: .seconds(10)) == 42)
    }

    /// The replacement is applied; the original promise, which cannot carry an updater's result,
    /// settles with a clear error instead of hanging.
    @Test func replacement_returningSideEffectWithUpdater_settlesWithResultTypeMismatch() throws {
        let store = makeStore(interceptors: [
            replacing(where: { $0 is ReadCounter }, with: { _ in Increment(amount: 5) }),
        ])
        let error = rejection(of: store.dispatch(ReadCounter()))
        #expect(error?.katana == .resultTypeMismatch(item: "KatanaTests.Increment", expected: "Swift.Int", actual: "()"))
        #expect(store.state.applied == [5])
    }

    @Test func replacement_passesRemainingInterceptorsOnly() throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("before", into: events),
            replacing(where: isIncrement(by: 1), with: { _ in Increment(amount: 10) }),
            recording("after", into: events),
            interceptor { item, next in
                events.append("last:\((item as? Increment)?.amount ?? -1)")
                try next(item)
            },
        ])
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(events.values == ["before:Increment", "after:Increment", "last:10"])
        #expect(store.state.applied == [10])
    }

    @Test func replacement_failing_rejectsOriginalPromiseWithItsError() throws {
        let store = makeStore(interceptors: [
            replacing(where: isIncrement(by: 66), with: { _ in Fails(code: 66) }),
        ])
        #expect(rejection(of: store.dispatch(Increment(amount: 66))) as? TestError == TestError(code: 66))
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [1])
    }

    @Test func replacement_unsupportedItem_rejectsOriginalPromiseInsteadOfHanging() throws {
        let store = makeStore(interceptors: [
            replacing(where: isIncrement(by: 4), with: { _ in NotHandleable() }),
        ])
        let error = rejection(of: store.dispatch(Increment(amount: 4)))
        #expect(error?.katana == .unsupportedDispatchable(item: "KatanaTests.NotHandleable"))
        #expect(store.state == CounterState())
    }

    @Test func interceptorCallingNextLaterFromAnotherThread_itemIsStillHandled() {
        let deferring = interceptor { item, next in
            guard isIncrement(by: 7)(item) else { return try next(item) }
            DispatchQueue.global().async { try? next(item) }
        }
        let store = makeStore(interceptors: [deferring])
        store.dispatch(Increment(amount: 7))
        #expect(eventually { store.state.counter == 7 })
        #expect(store.state.applied == [7])
    }

    /// An interceptor decides synchronously: when it returns without calling `next`, the item
    /// counts as blocked and its promise settles at once (it never hangs). Passing the item on
    /// later still gets it handled, in turn, but its outcome is not reported through that promise.
    @Test func interceptorCallingNextLater_updaterPromiseSettlesAsBlocked_itemAppliedWhenPassedOn() throws {
        let passOn = Latch()
        let deferring = interceptor { item, next in
            guard isIncrement(by: 7)(item) else { return try next(item) }
            DispatchQueue.global().async {
                _ = passOn.wait(timeout: .seconds(10))
                try? next(item)
            }
        }
        let store = makeStore(interceptors: [deferring])
        // Blocked updater: fulfilled with the state unchanged, before the item was passed on.
        try store.dispatch(Increment(amount: 7)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 0)
        passOn.open()
        #expect(eventually { store.state.counter == 7 })
        #expect(store.state.applied == [7])
    }

    @Test func interceptorCallingNextLater_sideEffectPromiseRejectsAsBlocked_sideEffectRunsWhenPassedOn() throws {
        let passOn = Latch()
        let deferring = interceptor { item, next in
            guard item is IncrementLater else { return try next(item) }
            DispatchQueue.global().async {
                _ = passOn.wait(timeout: .seconds(10))
                try? next(item)
            }
        }
        let store = makeStore(interceptors: [deferring])
        let error = rejection(of: store.dispatch(IncrementLater(amount: 3)))
        #expect(error?.katana == .blockedByInterceptor(item: "KatanaTests.IncrementLater"))
        #expect(store.state.counter == 0)
        passOn.open()
        #expect(eventually { store.state.counter == 3 })
    }

    /// By the contract, the first item an interceptor passes on while an item goes through the
    /// chain is that item's replacement: here the held-back `Constant(1)` settles the promise of
    /// `Constant(2)`; `Constant(2)`, passed on second, is still handled (with no promise to settle).
    @Test func heldItemPassedOnDuringLaterItem_isTheLaterItemsReplacement() throws {
        let held = Recorder<Constant>()
        let handled = Recorder<Int>()
        let holding = interceptor { item, next in
            guard let constant = item as? Constant else { return try next(item) }
            if constant.value == 1 {
                held.append(constant)
                return
            }
            for earlier in held.values { try next(earlier) }
            try next(item)
        }
        let recordingHandled = interceptor { item, next in
            if let constant = item as? Constant { handled.append(constant.value) }
            try next(item)
        }
        let store = makeStore(interceptors: [holding, recordingHandled])
        let first = store.dispatch(Constant(value: 1))
        // A side effect's interceptors run on its worker, concurrently with other side effects':
        // `Constant(2)` is dispatched once `Constant(1)` is held, so that it finds it there.
        #expect(rejection(of: first)?.katana == .blockedByInterceptor(item: "KatanaTests.Constant"))
        let second = store.dispatch(Constant(value: 2))
        let replacedBy = try second.wait(timeout: .seconds(10))
        #expect(replacedBy == 1)
        #expect(eventually { handled.values == [1, 2] }, "handled: \(handled.values)")
    }

    @Test func listeners_areCalledAfterEveryHandledUpdater_withInterceptors() throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            replacing(where: isIncrement(by: 2), with: { _ in Increment(amount: 20) }),
        ])
        let heard = Recorder<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        try store.dispatch(NoChange()).wait(timeout: .seconds(10))
        try store.dispatch(IncrementLater(amount: 3)).wait(timeout: .seconds(10))
        #expect(eventually { heard.values.count == 4 })
        #expect(heard.values == [Change(0, 1), Change(1, 21), Change(21, 21), Change(21, 24)])
    }

    @Test func interceptor_receivesStoreContext() throws {
        let seen = Recorder<String>()
        let inspecting = interceptor(onStart: { context in
            seen.append("deps:\(context.anyDependencies is TestDependencies)")
        }) { item, next in
            try next(item)
        }
        let store = makeStore(interceptors: [inspecting])
        try store.dispatch(Increment()).wait(timeout: .seconds(10))
        #expect(seen.values == ["deps:true"])
    }
}
