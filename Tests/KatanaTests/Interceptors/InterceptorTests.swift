import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// The short type name of an item, for readable expectations.
private func shortName(_ item: any Dispatchable) -> String {
    String(describing: type(of: item))
}

/// Passes every item on, recording `label:TypeName`.
private func recording(_ label: String, into events: LockedList<String>) -> InterceptorSpec {
    InterceptorSpec { item, next in
        events.append("\(label):\(shortName(item))")
        try next(item)
    }
}

/// Replaces items matching `match` with `replacement(item)`; passes the rest on.
private func replacing(
    where match: @escaping @Sendable (any Dispatchable) -> Bool,
    with replacement: @escaping @Sendable (any Dispatchable) -> any Dispatchable
) -> InterceptorSpec {
    InterceptorSpec { item, next in
        try next(match(item) ? replacement(item) : item)
    }
}

/// A test store, its interceptors given in `form`, whose one interceptor replaces each item
/// `match` accepts with what `replacement` makes of it.
private func storeReplacing(
    where match: @escaping @Sendable (any Dispatchable) -> Bool,
    with replacement: @escaping @Sendable (any Dispatchable) -> any Dispatchable,
    form: InterceptorForm
) -> TestStore {
    makeStore(interceptors: [replacing(where: match, with: replacement)], form: form)
}

private func isIncrement(by amount: Int) -> @Sendable (any Dispatchable) -> Bool {
    { ($0 as? Increment)?.amount == amount }
}

/// A returning side effect whose value is `value`; records `value` when it runs.
private struct RecordedValue: ReturningSideEffect {
    let value: Int
    let runs: LockedList<Int>
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        runs.append(value)
        return value
    }
}

/// Passes every item on; if a later interceptor throws, records `label caught TestError(code)`
/// (or the error) and throws it on.
private func recordingErrors(_ label: String, into events: LockedList<String>) -> InterceptorSpec {
    InterceptorSpec { item, next in
        do {
            try next(item)
        } catch {
            events.append("\(label) caught \((error as? TestError).map { "TestError(\($0.code))" } ?? "\(error)")")
            throw error
        }
    }
}

/// Store semantics 4: interceptors.
@Suite struct InterceptorTests {
    @Test(arguments: InterceptorForm.allCases) func interceptors_runInGivenOrderBeforeItemIsHandled(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: [
            recording("A", into: events), recording("B", into: events), recording("C", into: events),
        ], form: form)
        try await store.dispatch(RecordApplied(label: "handled", events: events)).settled()
        #expect(events.all == ["A:RecordApplied", "B:RecordApplied", "C:RecordApplied", "handled"])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptors_seeSideEffectsAndItemsTheyDispatch(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: [recording("log", into: events)], form: form)
        try await store.dispatch(IncrementLater(amount: 2)).settled()
        #expect(events.all == ["log:IncrementLater", "log:Increment"])
        #expect(store.state.counter == 2)
    }

    @Test(arguments: InterceptorForm.allCases) func blockedUpdater_resolvesWithStateUnchanged(form: InterceptorForm) async throws {
        let blocker = InterceptorSpec { item, next in
            if isIncrement(by: 100)(item) { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker], form: form, initial: CounterState(counter: 5))
        let heard = LockedList<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        try await store.dispatch(Increment(amount: 100)).settled()
        #expect(store.state == CounterState(counter: 5))
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(store.state.counter == 6)
        // Only the handled updater reaches the listeners.
        try await heard.waitUntil("a call") { $0.count == 1 }
        #expect(heard.all == [Change(5, 6)])
    }

    @Test(arguments: InterceptorForm.allCases) func blockedSideEffect_rejectsWithBlockedByInterceptor(form: InterceptorForm) async throws {
        let blocker = InterceptorSpec { item, next in
            if item is IncrementLater || item is ReadCounter { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker], form: form)
        let error = try await rejection(of: store.dispatch(IncrementLater(amount: 3)))
        #expect(error?.katana == .blockedByInterceptor(item: "KatanaTests.IncrementLater"))
        #expect(error.map { "\($0)" }?.contains("KatanaTests.IncrementLater") == true)
        let returning = try await rejection(of: store.dispatch(ReadCounter()))
        #expect(returning?.katana == .blockedByInterceptor(item: "KatanaTests.ReadCounter"))
        #expect(store.state.counter == 0)
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(store.state.counter == 1)
    }

    @Test(arguments: InterceptorForm.allCases) func blockedAsyncSideEffect_rejectsWithBlockedByInterceptor(form: InterceptorForm) async throws {
        let blocker = InterceptorSpec { item, next in
            if item is AsyncAdd { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker], form: form)
        await #expect(throws: KatanaError.blockedByInterceptor(item: "KatanaTests.AsyncAdd")) {
            try await store.dispatch(AsyncAdd(amount: 1)).settled()
        }
        #expect(store.state.counter == 0)
    }

    @Test(arguments: InterceptorForm.allCases) func throwingInterceptor_rejectsWithItsErrorAndItemIsNotHandled(form: InterceptorForm) async throws {
        let thrower = InterceptorSpec { item, next in
            if isIncrement(by: 9)(item) || item is IncrementLater { throw TestError(code: 9) }
            try next(item)
        }
        let store = makeStore(interceptors: [thrower], form: form)
        #expect(try await rejection(of: store.dispatch(Increment(amount: 9))) as? TestError == TestError(code: 9))
        #expect(try await rejection(of: store.dispatch(IncrementLater(amount: 1))) as? TestError == TestError(code: 9))
        #expect(store.state == CounterState())
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(store.state.applied == [2])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_updaterWithSideEffect_isHandledAsSideEffectAndSettlesOriginalPromise(form: InterceptorForm) async throws {
        let store = storeReplacing(where: isIncrement(by: 50), with: { _ in IncrementLater(amount: 2) }, form: form)
        try await store.dispatch(Increment(amount: 50)).settled()
        #expect(store.state.applied == [2])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_sideEffectWithUpdater_isAppliedAndSettlesOriginalPromise(form: InterceptorForm) async throws {
        let store = storeReplacing(where: { $0 is Fails }, with: { _ in Increment(amount: 3) }, form: form)
        try await store.dispatch(Fails(code: 1)).settled()
        #expect(store.state.applied == [3])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_returningSideEffect_originalPromiseGetsReplacementValue(form: InterceptorForm) async throws {
        let store = storeReplacing(where: { $0 is ReadCounter }, with: { _ in Constant(value: 42) }, form: form)
        #expect(try await store.dispatch(ReadCounter()).settled() == 42)
    }

    /// The replacement is applied; the original promise, which cannot carry an updater's result,
    /// settles with a clear error instead of hanging.
    @Test(arguments: InterceptorForm.allCases) func replacement_returningSideEffectWithUpdater_settlesWithResultTypeMismatch(form: InterceptorForm) async throws {
        let store = storeReplacing(where: { $0 is ReadCounter }, with: { _ in Increment(amount: 5) }, form: form)
        let error = try await rejection(of: store.dispatch(ReadCounter()))
        #expect(error?.katana == .resultTypeMismatch(item: "KatanaTests.Increment", expected: "Swift.Int", actual: "()"))
        #expect(store.state.applied == [5])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_passesRemainingInterceptorsOnly(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: [
            recording("before", into: events),
            replacing(where: isIncrement(by: 1), with: { _ in Increment(amount: 10) }),
            recording("after", into: events),
            InterceptorSpec { item, next in
                events.append("last:\((item as? Increment)?.amount ?? -1)")
                try next(item)
            },
        ], form: form)
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(events.all == ["before:Increment", "after:Increment", "last:10"])
        #expect(store.state.applied == [10])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_failing_rejectsOriginalPromiseWithItsError(form: InterceptorForm) async throws {
        let store = storeReplacing(where: isIncrement(by: 66), with: { _ in Fails(code: 66) }, form: form)
        #expect(try await rejection(of: store.dispatch(Increment(amount: 66))) as? TestError == TestError(code: 66))
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(store.state.applied == [1])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_unsupportedItem_rejectsOriginalPromiseInsteadOfHanging(form: InterceptorForm) async throws {
        let store = storeReplacing(where: isIncrement(by: 4), with: { _ in NotHandleable() }, form: form)
        let error = try await rejection(of: store.dispatch(Increment(amount: 4)))
        #expect(error?.katana == .unsupportedDispatchable(item: "KatanaTests.NotHandleable"))
        #expect(store.state == CounterState())
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorCallingNextLaterFromAnotherThread_itemIsStillHandled(form: InterceptorForm) async throws {
        let deferring = InterceptorSpec { item, next in
            guard isIncrement(by: 7)(item) else { return try next(item) }
            DispatchQueue.global().async { try? next(item) }
        }
        let store = makeStore(interceptors: [deferring], form: form)
        store.dispatch(Increment(amount: 7))
        try await store.waitUntil("the counter to reach 7") { store.state.counter == 7 }
        #expect(store.state.applied == [7])
    }

    /// An interceptor decides synchronously: when it returns without calling `next`, the item
    /// counts as blocked and its promise settles at once (it never hangs). Passing the item on
    /// later still gets it handled, in turn, but its outcome is not reported through that promise.
    @Test(arguments: InterceptorForm.allCases) func interceptorCallingNextLater_updaterPromiseSettlesAsBlocked_itemAppliedWhenPassedOn(form: InterceptorForm) async throws {
        let passOn = Latch()
        let deferring = InterceptorSpec { item, next in
            guard isIncrement(by: 7)(item) else { return try next(item) }
            DispatchQueue.global().async {
                _ = passOn.wait(timeout: holdTimeout)
                try? next(item)
            }
        }
        let store = makeStore(interceptors: [deferring], form: form)
        // Blocked updater: fulfilled with the state unchanged, before the item was passed on.
        try await store.dispatch(Increment(amount: 7)).settled()
        #expect(store.state.counter == 0)
        passOn.open()
        try await store.waitUntil("the counter to reach 7") { store.state.counter == 7 }
        #expect(store.state.applied == [7])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorCallingNextLater_sideEffectPromiseRejectsAsBlocked_sideEffectRunsWhenPassedOn(form: InterceptorForm) async throws {
        let passOn = Latch()
        let deferring = InterceptorSpec { item, next in
            guard item is IncrementLater else { return try next(item) }
            DispatchQueue.global().async {
                _ = passOn.wait(timeout: holdTimeout)
                try? next(item)
            }
        }
        let store = makeStore(interceptors: [deferring], form: form)
        let error = try await rejection(of: store.dispatch(IncrementLater(amount: 3)))
        #expect(error?.katana == .blockedByInterceptor(item: "KatanaTests.IncrementLater"))
        #expect(store.state.counter == 0)
        passOn.open()
        try await store.waitUntil("the counter to reach 3") { store.state.counter == 3 }
    }

    /// By the contract, the first item an interceptor passes on while an item goes through the
    /// chain is that item's replacement: here the held-back `Constant(1)` settles the promise of
    /// `Constant(2)`; `Constant(2)`, passed on second, is still handled (with no promise to settle).
    @Test(arguments: InterceptorForm.allCases) func heldItemPassedOnDuringLaterItem_isTheLaterItemsReplacement(form: InterceptorForm) async throws {
        let held = LockedList<Constant>()
        let handled = LockedList<Int>()
        let holding = InterceptorSpec { item, next in
            guard let constant = item as? Constant else { return try next(item) }
            if constant.value == 1 {
                held.append(constant)
                return
            }
            for earlier in held.all { try next(earlier) }
            try next(item)
        }
        let recordingHandled = InterceptorSpec { item, next in
            if let constant = item as? Constant { handled.append(constant.value) }
            try next(item)
        }
        let store = makeStore(interceptors: [holding, recordingHandled], form: form)
        let first = store.dispatch(Constant(value: 1))
        // A side effect's interceptors run on its worker, concurrently with other side effects':
        // `Constant(2)` is dispatched once `Constant(1)` is held, so that it finds it there.
        #expect(try await rejection(of: first)?.katana == .blockedByInterceptor(item: "KatanaTests.Constant"))
        let second = store.dispatch(Constant(value: 2))
        let replacedBy = try await second.settled()
        #expect(replacedBy == 1)
        try await handled.waitUntil { $0 == [1, 2] }
    }

    @Test(arguments: InterceptorForm.allCases) func listeners_areCalledAfterEveryHandledUpdater_withInterceptors(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            replacing(where: isIncrement(by: 2), with: { _ in Increment(amount: 20) }),
        ], form: form)
        let heard = LockedList<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        try await store.dispatch(Increment(amount: 1)).settled()
        try await store.dispatch(Increment(amount: 2)).settled()
        try await store.dispatch(NoChange()).settled()
        try await store.dispatch(IncrementLater(amount: 3)).settled()
        try await heard.waitUntil("4 calls") { $0.count == 4 }
        #expect(heard.all == [Change(0, 1), Change(1, 21), Change(21, 21), Change(21, 24)])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptor_receivesStoreContext(form: InterceptorForm) async throws {
        let seen = LockedList<String>()
        let inspecting = InterceptorSpec(onStart: { context in
            seen.append("deps:\(context.anyDependencies is TestDependencies)")
        }) { item, next in
            try next(item)
        }
        let store = makeStore(interceptors: [inspecting], form: form)
        try await store.dispatch(Increment()).settled()
        #expect(seen.all == ["deps:true"])
    }

    // MARK: - next called twice, dispatching from inside, throwing after next

    /// Both items an interceptor passes on for one updater are applied, in order; the updater's
    /// promise (which the first takes) is fulfilled.
    @Test(arguments: InterceptorForm.allCases) func nextCalledTwice_updater_bothAreApplied_promiseSettles(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            InterceptorSpec { item, next in
                guard isIncrement(by: 1)(item) else { return try next(item) }
                try next(Increment(amount: 10))
                try next(Increment(amount: 20))
            },
        ], form: form)
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(store.state.applied.first == 10)
        try await store.waitUntil("the updaters [10, 20] applied") { store.state.applied == [10, 20] }
        // The second item is not run through the interceptors again.
        #expect(events.all == ["log:Increment"])
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(store.state.applied == [10, 20, 2])
    }

    /// Both items an interceptor passes on for one side effect run; the side effect's promise gets
    /// the first one's value, and the second runs without a promise.
    @Test(arguments: InterceptorForm.allCases) func nextCalledTwice_sideEffect_bothRun_promiseSettlesWithTheFirst(form: InterceptorForm) async throws {
        let runs = LockedList<Int>()
        let events = LockedList<String>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            InterceptorSpec { item, next in
                guard let original = item as? RecordedValue, original.value == 1 else { return try next(item) }
                try next(RecordedValue(value: 10, runs: original.runs))
                try next(RecordedValue(value: 20, runs: original.runs))
            },
        ], form: form)
        #expect(try await store.dispatch(RecordedValue(value: 1, runs: runs)).settled() == 10)
        try await runs.waitUntil { $0 == [10, 20] }
        #expect(events.all == ["log:RecordedValue"])
    }

    /// The same item passed on twice is handled twice: an async side effect runs twice, and its
    /// promise settles with the first run's value.
    @Test(arguments: InterceptorForm.allCases) func nextCalledTwice_asyncSideEffect_runsTwice_promiseSettles(form: InterceptorForm) async throws {
        let store = makeStore(interceptors: [
            recording("log", into: LockedList<String>()),
            InterceptorSpec { item, next in
                try next(item)
                if item is AsyncAdd { try next(item) }
            },
        ], form: form)
        let value = try await store.dispatch(AsyncAdd(amount: 2)).settled()
        #expect(value == 2 || value == 4)
        try await store.waitUntil("the updaters [2, 2] applied") { store.state.applied == [2, 2] }
    }

    /// An interceptor that dispatches an updater to its own store while it handles an updater: the
    /// inner item goes through the interceptors and is applied after the outer one; both promises settle.
    @Test(arguments: InterceptorForm.allCases) func interceptorDispatchingFromInside_updater_innerItemIsHandled_outerPromiseSettles(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let inner = LockedList<Promise<Void>>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            InterceptorSpec(withContext: { context, item, next in
                if isIncrement(by: 1)(item) {
                    inner.append(context.dispatch(Increment(amount: 100)))
                }
                try next(item)
            }),
        ], form: form)
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(inner.all.count == 1)
        for promise in inner.all {
            try await promise.settled()
        }
        #expect(store.state.applied == [1, 100])
        #expect(events.all == ["log:Increment", "log:Increment"])
    }

    /// An interceptor that dispatches a side effect to its own store while it handles a side
    /// effect, and waits for its value: the inner one runs, and the outer promise gets its own value.
    @Test(arguments: InterceptorForm.allCases) func interceptorDispatchingFromInside_sideEffect_innerItemIsHandled_outerPromiseSettles(form: InterceptorForm) async throws {
        let runs = LockedList<Int>()
        let innerValues = LockedList<Int>()
        let store = makeStore(interceptors: [
            recording("log", into: LockedList<String>()),
            InterceptorSpec(withContext: { context, item, next in
                if let outer = item as? RecordedValue, outer.value == 1 {
                    innerValues.append(try context.dispatch(RecordedValue(value: 2, runs: outer.runs)).wait(timeout: defaultTestTimeout))
                }
                try next(item)
            }),
        ], form: form)
        #expect(try await store.dispatch(RecordedValue(value: 1, runs: runs)).settled() == 1)
        #expect(innerValues.all == [2])
        #expect(runs.all == [2, 1])
    }

    /// Throwing after `next`: the item was handled, so its promise settles as the handling says
    /// (the error does not reject it); the error goes back through the interceptors before, as
    /// `next` throwing. Here an updater: applied, promise fulfilled.
    @Test(arguments: InterceptorForm.allCases) func throwAfterNext_updater_isApplied_promiseFulfilled(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: [
            recordingErrors("first", into: events),
            InterceptorSpec { item, next in
                try next(item)
                if isIncrement(by: 3)(item) { throw TestError(code: 77) }
            },
        ], form: form)
        #expect(try await rejection(of: store.dispatch(Increment(amount: 3))) == nil)
        #expect(store.state.applied == [3])
        #expect(events.all == ["first caught TestError(77)"])
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(store.state.applied == [3, 1])
    }

    /// Throwing after `next` for side effects: the promise settles with the side effect's own
    /// outcome — its value, or its own error — not with the interceptor's error.
    @Test(arguments: InterceptorForm.allCases) func throwAfterNext_sideEffect_runs_promiseSettlesWithItsOwnOutcome(form: InterceptorForm) async throws {
        let events = LockedList<String>()
        let runs = LockedList<Int>()
        let store = makeStore(interceptors: [
            recordingErrors("first", into: events),
            InterceptorSpec { item, next in
                try next(item)
                if item is RecordedValue || item is Fails { throw TestError(code: 77) }
            },
        ], form: form)
        #expect(try await store.dispatch(RecordedValue(value: 5, runs: runs)).settled() == 5)
        #expect(runs.all == [5])
        #expect(try await rejection(of: store.dispatch(Fails(code: 6))) as? TestError == TestError(code: 6))
        #expect(events.all == ["first caught TestError(77)", "first caught TestError(77)"])
    }

    /// Throwing after passing on a replacement: the replacement is handled and settles the promise.
    @Test(arguments: InterceptorForm.allCases) func throwAfterNext_withReplacement_replacementSettlesThePromise(form: InterceptorForm) async throws {
        let runs = LockedList<Int>()
        let store = makeStore(interceptors: [
            recording("log", into: LockedList<String>()),
            InterceptorSpec { item, next in
                guard let original = item as? RecordedValue, original.value == 1 else { return try next(item) }
                try next(RecordedValue(value: 8, runs: original.runs))
                throw TestError(code: 77)
            },
        ], form: form)
        #expect(try await store.dispatch(RecordedValue(value: 1, runs: runs)).settled() == 8)
        #expect(runs.all == [8])
    }
}
