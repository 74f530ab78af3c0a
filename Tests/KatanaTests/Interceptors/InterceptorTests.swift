import Dispatch
import Foundation
import Testing
@testable import Katana

/// The short type name of an item, for readable expectations.
private func shortName(_ item: any Dispatchable) -> String {
    String(describing: type(of: item))
}

/// Passes every item on, recording `label:TypeName`.
private func recording(_ label: String, into events: Recorder<String>) -> InterceptorSpec {
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

private func isIncrement(by amount: Int) -> @Sendable (any Dispatchable) -> Bool {
    { ($0 as? Increment)?.amount == amount }
}

/// A returning side effect whose value is `value`; records `value` when it runs.
private struct RecordedValue: ReturningSideEffect {
    let value: Int
    let runs: Recorder<Int>
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        runs.append(value)
        return value
    }
}

/// Passes every item on; if a later interceptor throws, records `label caught TestError(code)`
/// (or the error) and throws it on.
private func recordingErrors(_ label: String, into events: Recorder<String>) -> InterceptorSpec {
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
    @Test(arguments: InterceptorForm.allCases) func interceptors_runInGivenOrderBeforeItemIsHandled(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("A", into: events), recording("B", into: events), recording("C", into: events),
        ], form: form)
        try store.dispatch(RecordApplied(label: "handled", events: events)).wait(timeout: .seconds(10))
        #expect(events.values == ["A:RecordApplied", "B:RecordApplied", "C:RecordApplied", "handled"])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptors_seeSideEffectsAndItemsTheyDispatch(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [recording("log", into: events)], form: form)
        try store.dispatch(IncrementLater(amount: 2)).wait(timeout: .seconds(10))
        #expect(events.values == ["log:IncrementLater", "log:Increment"])
        #expect(store.state.counter == 2)
    }

    @Test(arguments: InterceptorForm.allCases) func blockedUpdater_resolvesWithStateUnchanged(form: InterceptorForm) throws {
        let blocker = InterceptorSpec { item, next in
            if isIncrement(by: 100)(item) { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker], form: form, initial: CounterState(counter: 5))
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

    @Test(arguments: InterceptorForm.allCases) func blockedSideEffect_rejectsWithBlockedByInterceptor(form: InterceptorForm) throws {
        let blocker = InterceptorSpec { item, next in
            if item is IncrementLater || item is ReadCounter { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker], form: form)
        let error = rejection(of: store.dispatch(IncrementLater(amount: 3)))
        #expect(error?.katana == .blockedByInterceptor(item: "KatanaTests.IncrementLater"))
        #expect(error.map { "\($0)" }?.contains("KatanaTests.IncrementLater") == true)
        let returning = rejection(of: store.dispatch(ReadCounter()))
        #expect(returning?.katana == .blockedByInterceptor(item: "KatanaTests.ReadCounter"))
        #expect(store.state.counter == 0)
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 1)
    }

    @Test(arguments: InterceptorForm.allCases) func blockedAsyncSideEffect_rejectsWithBlockedByInterceptor(form: InterceptorForm) async throws {
        let blocker = InterceptorSpec { item, next in
            if item is AsyncAdd { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocker], form: form)
        await #expect(throws: KatanaError.blockedByInterceptor(item: "KatanaTests.AsyncAdd")) {
            try await withTimeout { try await store.dispatch(AsyncAdd(amount: 1)).value }
        }
        #expect(store.state.counter == 0)
    }

    @Test(arguments: InterceptorForm.allCases) func throwingInterceptor_rejectsWithItsErrorAndItemIsNotHandled(form: InterceptorForm) throws {
        let thrower = InterceptorSpec { item, next in
            if isIncrement(by: 9)(item) || item is IncrementLater { throw TestError(code: 9) }
            try next(item)
        }
        let store = makeStore(interceptors: [thrower], form: form)
        #expect(rejection(of: store.dispatch(Increment(amount: 9))) as? TestError == TestError(code: 9))
        #expect(rejection(of: store.dispatch(IncrementLater(amount: 1))) as? TestError == TestError(code: 9))
        #expect(store.state == CounterState())
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [2])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_updaterWithSideEffect_isHandledAsSideEffectAndSettlesOriginalPromise(form: InterceptorForm) throws {
        let store = makeStore(interceptors: [
            replacing(where: isIncrement(by: 50), with: { _ in IncrementLater(amount: 2) }),
        ], form: form)
        try store.dispatch(Increment(amount: 50)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [2])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_sideEffectWithUpdater_isAppliedAndSettlesOriginalPromise(form: InterceptorForm) throws {
        let store = makeStore(interceptors: [
            replacing(where: { $0 is Fails }, with: { _ in Increment(amount: 3) }),
        ], form: form)
        try store.dispatch(Fails(code: 1)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [3])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_returningSideEffect_originalPromiseGetsReplacementValue(form: InterceptorForm) throws {
        let store = makeStore(interceptors: [
            replacing(where: { $0 is ReadCounter }, with: { _ in Constant(value: 42) }),
        ], form: form)
        #expect(try store.dispatch(ReadCounter()).wait(timeout: .seconds(10)) == 42)
    }

    /// The replacement is applied; the original promise, which cannot carry an updater's result,
    /// settles with a clear error instead of hanging.
    @Test(arguments: InterceptorForm.allCases) func replacement_returningSideEffectWithUpdater_settlesWithResultTypeMismatch(form: InterceptorForm) throws {
        let store = makeStore(interceptors: [
            replacing(where: { $0 is ReadCounter }, with: { _ in Increment(amount: 5) }),
        ], form: form)
        let error = rejection(of: store.dispatch(ReadCounter()))
        #expect(error?.katana == .resultTypeMismatch(item: "KatanaTests.Increment", expected: "Swift.Int", actual: "()"))
        #expect(store.state.applied == [5])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_passesRemainingInterceptorsOnly(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("before", into: events),
            replacing(where: isIncrement(by: 1), with: { _ in Increment(amount: 10) }),
            recording("after", into: events),
            InterceptorSpec { item, next in
                events.append("last:\((item as? Increment)?.amount ?? -1)")
                try next(item)
            },
        ], form: form)
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(events.values == ["before:Increment", "after:Increment", "last:10"])
        #expect(store.state.applied == [10])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_failing_rejectsOriginalPromiseWithItsError(form: InterceptorForm) throws {
        let store = makeStore(interceptors: [
            replacing(where: isIncrement(by: 66), with: { _ in Fails(code: 66) }),
        ], form: form)
        #expect(rejection(of: store.dispatch(Increment(amount: 66))) as? TestError == TestError(code: 66))
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [1])
    }

    @Test(arguments: InterceptorForm.allCases) func replacement_unsupportedItem_rejectsOriginalPromiseInsteadOfHanging(form: InterceptorForm) throws {
        let store = makeStore(interceptors: [
            replacing(where: isIncrement(by: 4), with: { _ in NotHandleable() }),
        ], form: form)
        let error = rejection(of: store.dispatch(Increment(amount: 4)))
        #expect(error?.katana == .unsupportedDispatchable(item: "KatanaTests.NotHandleable"))
        #expect(store.state == CounterState())
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorCallingNextLaterFromAnotherThread_itemIsStillHandled(form: InterceptorForm) {
        let deferring = InterceptorSpec { item, next in
            guard isIncrement(by: 7)(item) else { return try next(item) }
            DispatchQueue.global().async { try? next(item) }
        }
        let store = makeStore(interceptors: [deferring], form: form)
        store.dispatch(Increment(amount: 7))
        #expect(eventually { store.state.counter == 7 })
        #expect(store.state.applied == [7])
    }

    /// An interceptor decides synchronously: when it returns without calling `next`, the item
    /// counts as blocked and its promise settles at once (it never hangs). Passing the item on
    /// later still gets it handled, in turn, but its outcome is not reported through that promise.
    @Test(arguments: InterceptorForm.allCases) func interceptorCallingNextLater_updaterPromiseSettlesAsBlocked_itemAppliedWhenPassedOn(form: InterceptorForm) throws {
        let passOn = Latch()
        let deferring = InterceptorSpec { item, next in
            guard isIncrement(by: 7)(item) else { return try next(item) }
            DispatchQueue.global().async {
                _ = passOn.wait(timeout: .seconds(10))
                try? next(item)
            }
        }
        let store = makeStore(interceptors: [deferring], form: form)
        // Blocked updater: fulfilled with the state unchanged, before the item was passed on.
        try store.dispatch(Increment(amount: 7)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 0)
        passOn.open()
        #expect(eventually { store.state.counter == 7 })
        #expect(store.state.applied == [7])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorCallingNextLater_sideEffectPromiseRejectsAsBlocked_sideEffectRunsWhenPassedOn(form: InterceptorForm) throws {
        let passOn = Latch()
        let deferring = InterceptorSpec { item, next in
            guard item is IncrementLater else { return try next(item) }
            DispatchQueue.global().async {
                _ = passOn.wait(timeout: .seconds(10))
                try? next(item)
            }
        }
        let store = makeStore(interceptors: [deferring], form: form)
        let error = rejection(of: store.dispatch(IncrementLater(amount: 3)))
        #expect(error?.katana == .blockedByInterceptor(item: "KatanaTests.IncrementLater"))
        #expect(store.state.counter == 0)
        passOn.open()
        #expect(eventually { store.state.counter == 3 })
    }

    /// By the contract, the first item an interceptor passes on while an item goes through the
    /// chain is that item's replacement: here the held-back `Constant(1)` settles the promise of
    /// `Constant(2)`; `Constant(2)`, passed on second, is still handled (with no promise to settle).
    @Test(arguments: InterceptorForm.allCases) func heldItemPassedOnDuringLaterItem_isTheLaterItemsReplacement(form: InterceptorForm) throws {
        let held = Recorder<Constant>()
        let handled = Recorder<Int>()
        let holding = InterceptorSpec { item, next in
            guard let constant = item as? Constant else { return try next(item) }
            if constant.value == 1 {
                held.append(constant)
                return
            }
            for earlier in held.values { try next(earlier) }
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
        #expect(rejection(of: first)?.katana == .blockedByInterceptor(item: "KatanaTests.Constant"))
        let second = store.dispatch(Constant(value: 2))
        let replacedBy = try second.wait(timeout: .seconds(10))
        #expect(replacedBy == 1)
        #expect(eventually { handled.values == [1, 2] }, "handled: \(handled.values)")
    }

    @Test(arguments: InterceptorForm.allCases) func listeners_areCalledAfterEveryHandledUpdater_withInterceptors(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            replacing(where: isIncrement(by: 2), with: { _ in Increment(amount: 20) }),
        ], form: form)
        let heard = Recorder<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        try store.dispatch(NoChange()).wait(timeout: .seconds(10))
        try store.dispatch(IncrementLater(amount: 3)).wait(timeout: .seconds(10))
        #expect(eventually { heard.values.count == 4 })
        #expect(heard.values == [Change(0, 1), Change(1, 21), Change(21, 21), Change(21, 24)])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptor_receivesStoreContext(form: InterceptorForm) throws {
        let seen = Recorder<String>()
        let inspecting = InterceptorSpec(onStart: { context in
            seen.append("deps:\(context.anyDependencies is TestDependencies)")
        }) { item, next in
            try next(item)
        }
        let store = makeStore(interceptors: [inspecting], form: form)
        try store.dispatch(Increment()).wait(timeout: .seconds(10))
        #expect(seen.values == ["deps:true"])
    }

    // MARK: - next called twice, dispatching from inside, throwing after next

    /// Both items an interceptor passes on for one updater are applied, in order; the updater's
    /// promise (which the first takes) is fulfilled.
    @Test(arguments: InterceptorForm.allCases) func nextCalledTwice_updater_bothAreApplied_promiseSettles(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            InterceptorSpec { item, next in
                guard isIncrement(by: 1)(item) else { return try next(item) }
                try next(Increment(amount: 10))
                try next(Increment(amount: 20))
            },
        ], form: form)
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.applied.first == 10)
        #expect(eventually { store.state.applied == [10, 20] }, "applied: \(store.state.applied)")
        // The second item is not run through the interceptors again.
        #expect(events.values == ["log:Increment"])
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [10, 20, 2])
    }

    /// Both items an interceptor passes on for one side effect run; the side effect's promise gets
    /// the first one's value, and the second runs without a promise.
    @Test(arguments: InterceptorForm.allCases) func nextCalledTwice_sideEffect_bothRun_promiseSettlesWithTheFirst(form: InterceptorForm) throws {
        let runs = Recorder<Int>()
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            InterceptorSpec { item, next in
                guard let original = item as? RecordedValue, original.value == 1 else { return try next(item) }
                try next(RecordedValue(value: 10, runs: original.runs))
                try next(RecordedValue(value: 20, runs: original.runs))
            },
        ], form: form)
        #expect(try store.dispatch(RecordedValue(value: 1, runs: runs)).wait(timeout: .seconds(10)) == 10)
        #expect(eventually { runs.values == [10, 20] }, "runs: \(runs.values)")
        #expect(events.values == ["log:RecordedValue"])
    }

    /// The same item passed on twice is handled twice: an async side effect runs twice, and its
    /// promise settles with the first run's value.
    @Test(arguments: InterceptorForm.allCases) func nextCalledTwice_asyncSideEffect_runsTwice_promiseSettles(form: InterceptorForm) async throws {
        let store = makeStore(interceptors: [
            recording("log", into: Recorder<String>()),
            InterceptorSpec { item, next in
                try next(item)
                if item is AsyncAdd { try next(item) }
            },
        ], form: form)
        let value = try await withTimeout { try await store.dispatch(AsyncAdd(amount: 2)).value }
        #expect(value == 2 || value == 4)
        #expect(await eventuallyAsync { store.state.applied == [2, 2] }, "applied: \(store.state.applied)")
    }

    /// An interceptor that dispatches an updater to its own store while it handles an updater: the
    /// inner item goes through the interceptors and is applied after the outer one; both promises settle.
    @Test(arguments: InterceptorForm.allCases) func interceptorDispatchingFromInside_updater_innerItemIsHandled_outerPromiseSettles(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let inner = Recorder<Promise<Void>>()
        let store = makeStore(interceptors: [
            recording("log", into: events),
            InterceptorSpec(withContext: { context, item, next in
                if isIncrement(by: 1)(item) {
                    inner.append(context.dispatch(Increment(amount: 100)))
                }
                try next(item)
            }),
        ], form: form)
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(inner.values.count == 1)
        for promise in inner.values {
            try promise.wait(timeout: .seconds(10))
        }
        #expect(store.state.applied == [1, 100])
        #expect(events.values == ["log:Increment", "log:Increment"])
    }

    /// An interceptor that dispatches a side effect to its own store while it handles a side
    /// effect, and waits for its value: the inner one runs, and the outer promise gets its own value.
    @Test(arguments: InterceptorForm.allCases) func interceptorDispatchingFromInside_sideEffect_innerItemIsHandled_outerPromiseSettles(form: InterceptorForm) throws {
        let runs = Recorder<Int>()
        let innerValues = Recorder<Int>()
        let store = makeStore(interceptors: [
            recording("log", into: Recorder<String>()),
            InterceptorSpec(withContext: { context, item, next in
                if let outer = item as? RecordedValue, outer.value == 1 {
                    innerValues.append(try context.dispatch(RecordedValue(value: 2, runs: outer.runs)).wait(timeout: .seconds(5)))
                }
                try next(item)
            }),
        ], form: form)
        #expect(try store.dispatch(RecordedValue(value: 1, runs: runs)).wait(timeout: .seconds(10)) == 1)
        #expect(innerValues.values == [2])
        #expect(runs.values == [2, 1])
    }

    /// Throwing after `next`: the item was handled, so its promise settles as the handling says
    /// (the error does not reject it); the error goes back through the interceptors before, as
    /// `next` throwing. Here an updater: applied, promise fulfilled.
    @Test(arguments: InterceptorForm.allCases) func throwAfterNext_updater_isApplied_promiseFulfilled(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [
            recordingErrors("first", into: events),
            InterceptorSpec { item, next in
                try next(item)
                if isIncrement(by: 3)(item) { throw TestError(code: 77) }
            },
        ], form: form)
        #expect(rejection(of: store.dispatch(Increment(amount: 3))) == nil)
        #expect(store.state.applied == [3])
        #expect(events.values == ["first caught TestError(77)"])
        try store.dispatch(Increment(amount: 1)).wait(timeout: .seconds(10))
        #expect(store.state.applied == [3, 1])
    }

    /// Throwing after `next` for side effects: the promise settles with the side effect's own
    /// outcome — its value, or its own error — not with the interceptor's error.
    @Test(arguments: InterceptorForm.allCases) func throwAfterNext_sideEffect_runs_promiseSettlesWithItsOwnOutcome(form: InterceptorForm) throws {
        let events = Recorder<String>()
        let runs = Recorder<Int>()
        let store = makeStore(interceptors: [
            recordingErrors("first", into: events),
            InterceptorSpec { item, next in
                try next(item)
                if item is RecordedValue || item is Fails { throw TestError(code: 77) }
            },
        ], form: form)
        #expect(try store.dispatch(RecordedValue(value: 5, runs: runs)).wait(timeout: .seconds(10)) == 5)
        #expect(runs.values == [5])
        #expect(rejection(of: store.dispatch(Fails(code: 6))) as? TestError == TestError(code: 6))
        #expect(events.values == ["first caught TestError(77)", "first caught TestError(77)"])
    }

    /// Throwing after passing on a replacement: the replacement is handled and settles the promise.
    @Test(arguments: InterceptorForm.allCases) func throwAfterNext_withReplacement_replacementSettlesThePromise(form: InterceptorForm) throws {
        let runs = Recorder<Int>()
        let store = makeStore(interceptors: [
            recording("log", into: Recorder<String>()),
            InterceptorSpec { item, next in
                guard let original = item as? RecordedValue, original.value == 1 else { return try next(item) }
                try next(RecordedValue(value: 8, runs: original.runs))
                throw TestError(code: 77)
            },
        ], form: form)
        #expect(try store.dispatch(RecordedValue(value: 1, runs: runs)).wait(timeout: .seconds(10)) == 8)
        #expect(runs.values == [8])
    }
}
