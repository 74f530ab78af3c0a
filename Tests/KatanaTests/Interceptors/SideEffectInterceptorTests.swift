import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// A side effect that records its name when it runs.
private struct RecordRun: SideEffect {
    let name: String
    let runs: LockedList<String>
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        runs.append(name)
    }
}

/// A side effect an interceptor blocks.
private struct Blocked: SideEffect {
    let runs: LockedList<String>
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        runs.append("blocked side effect ran")
    }
}

/// A side effect an interceptor throws for.
private struct Refused: SideEffect {
    let runs: LockedList<String>
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        runs.append("refused side effect ran")
    }
}

/// An interceptor that, before passing a `ReadCounter` on, dispatches `Increment(amount:)` through
/// its context and blocks until that has been applied.
private func incrementingAndWaitingBeforeReadCounter(amount: Int, errors: LockedList<String>) -> InterceptorSpec {
    InterceptorSpec(withContext: { context, item, next in
        if item is ReadCounter {
            do {
                try context.dispatch(Increment(amount: amount)).wait(timeout: defaultTestTimeout)
            } catch {
                errors.append("\(error)")
                throw error
            }
        }
        try next(item)
    })
}

/// Store semantics 4: a side effect's interceptor chain runs where the side effect runs (the
/// concurrent side-effect pool), not on the store's serial queue; ordering and the interceptors'
/// powers are kept on that path.
@Suite struct SideEffectInterceptorTests {
    @Test(arguments: InterceptorForm.allCases) func interceptorBlockingOnItsOwnDispatch_whileHandlingSideEffect_succeeds(form: InterceptorForm) async throws {
        let errors = LockedList<String>()
        let store = makeStore(interceptors: [incrementingAndWaitingBeforeReadCounter(amount: 7, errors: errors)], form: form)
        let read = store.dispatch(ReadCounter())
        let outcome: String
        do {
            outcome = "fulfilled with \(try await read.settled())"
        } catch {
            outcome = "rejected with \(error)"
        }
        // The side effect ran after the interceptor's updater was applied, and saw it.
        #expect(outcome == "fulfilled with 7")
        #expect(errors.all == [])
        #expect(store.state.counter == 7)
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorsBlockingOnTheirOwnDispatches_forManySideEffectsAtOnce_allSucceed(form: InterceptorForm) async throws {
        let errors = LockedList<String>()
        let store = makeStore(interceptors: [incrementingAndWaitingBeforeReadCounter(amount: 1, errors: errors)], form: form)
        let reads = (1...20).map { _ in store.dispatch(ReadCounter()) }
        let values = try await Promise.all(reads).settled()
        #expect(errors.all == [])
        #expect(values.count == 20)
        #expect(values.allSatisfy { $0 >= 1 && $0 <= 20 })
        #expect(store.state.counter == 20)
    }

    @Test(arguments: InterceptorForm.allCases) func sideEffectDispatchedAfterUpdater_seesThatUpdater_withSlowInterceptor_50Times(form: InterceptorForm) async throws {
        // Slow for updaters, so that a side effect whose chain overtook an earlier updater would show it.
        let slowForUpdaters = InterceptorSpec { item, next in
            if item is Increment { usleep(200) }
            try next(item)
        }
        let store = makeStore(interceptors: [slowForUpdaters], form: form)
        var wrong: [String] = []
        for expected in 1...50 {
            store.dispatch(Increment())
            let read = try await store.dispatch(ReadCounter()).settled()
            if read != expected {
                wrong.append("read \(read), expected \(expected)")
            }
        }
        #expect(wrong == [])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorReplacingSideEffect_runsTheReplacement_andFulfilsTheOriginalPromise(form: InterceptorForm) async throws {
        let runs = LockedList<String>()
        let replacing = InterceptorSpec { item, next in
            if let original = item as? RecordRun, original.name == "A" {
                try next(RecordRun(name: "B", runs: original.runs))
            } else {
                try next(item)
            }
        }
        let store = makeStore(interceptors: [replacing], form: form)
        #expect(try await rejection(of: store.dispatch(RecordRun(name: "A", runs: runs))) == nil)
        #expect(runs.all == ["B"])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorBlockingSideEffect_rejectsWithBlockedByInterceptor(form: InterceptorForm) async throws {
        let runs = LockedList<String>()
        let blocking = InterceptorSpec { item, next in
            if item is Blocked { return }
            try next(item)
        }
        let store = makeStore(interceptors: [blocking], form: form)
        let error = try await rejection(of: store.dispatch(Blocked(runs: runs)))
        #expect(error?.katana == .blockedByInterceptor(item: String(reflecting: Blocked.self)))
        #expect(runs.all == [])
    }

    @Test(arguments: InterceptorForm.allCases) func interceptorThrowingForSideEffect_rejectsWithThatError_andSideEffectDoesNotRun(form: InterceptorForm) async throws {
        let runs = LockedList<String>()
        let throwing = InterceptorSpec { item, next in
            if item is Refused { throw TestError(code: 41) }
            try next(item)
        }
        let store = makeStore(interceptors: [throwing], form: form)
        let error = try await rejection(of: store.dispatch(Refused(runs: runs)))
        #expect(error as? TestError == TestError(code: 41))
        #expect(runs.all == [])
    }
}

/// Katana 6 resolves a dispatch's promise once the whole interceptor chain has returned: what an
/// interceptor does after `next` is done when `wait` returns.
@Suite struct InterceptorWorkAfterNextTests {
    /// Records, after `next` returns (after a short pause, to widen a race), that the item passed.
    private static func recordingAfterNext(_ seen: LockedList<String>) -> InterceptorSpec {
        InterceptorSpec { item, next in
            try next(item)
            usleep(2_000)
            seen.append("\(type(of: item)) passed")
        }
    }

    @Test(arguments: InterceptorForm.allCases) func sideEffectPromise_settlesAfterTheInterceptorsReturn(form: InterceptorForm) async throws {
        let seen = LockedList<String>()
        let store = makeStore(interceptors: [Self.recordingAfterNext(seen)], form: form)
        for round in 1 ... 5 {
            #expect(try await store.dispatch(Constant(value: round)).settled() == round)
            #expect(seen.all.filter { $0 == "Constant passed" }.count == round)
        }
    }

    @Test(arguments: InterceptorForm.allCases) func updaterPromise_settlesAfterTheInterceptorsReturn(form: InterceptorForm) async throws {
        let seen = LockedList<String>()
        let store = makeStore(interceptors: [Self.recordingAfterNext(seen)], form: form)
        for round in 1 ... 5 {
            try await store.dispatch(Increment()).settled()
            #expect(seen.all.filter { $0 == "Increment passed" }.count == round)
        }
    }
}
