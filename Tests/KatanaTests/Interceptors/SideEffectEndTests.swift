import Foundation
@testable import Katana
import KatanaTestSupport
import Testing

/// Interceptors learn how each side effect ended (`observeSideEffectEnds`): succeeded, failed with
/// its error, or cancelled and by what, with how long its body ran, an async one's whole task.
@Suite struct SideEffectEndTests {
    struct Counter: State { var value = 0 }
    typealias CounterStore = Store<Counter, EmptySideEffectDependencyContainer>
    typealias Context = SideEffectContext<Counter, EmptySideEffectDependencyContainer>

    struct Bump: StateUpdater {
        func updateState(_ state: inout Counter) { state.value += 1 }
    }

    struct Nap: SideEffect {
        var fails = false
        func sideEffect(_ context: Context) throws {
            Thread.sleep(forTimeInterval: 0.02)
            if fails { throw TestError(code: 1) }
        }
    }

    struct AsyncNap: AsyncSideEffect {
        var fails = false
        func sideEffect(_ context: Context) async throws {
            try await Task.sleep(for: .milliseconds(20))
            try await Task.sleep(for: .milliseconds(20))
            if fails { throw TestError(code: 2) }
        }
    }

    /// Notes that its body began, then sleeps until cancelled (or a minute passes).
    struct Search: AsyncSideEffect {
        var query = ""
        var latestWins = false
        let began: LockedList<String>
        var cancellationID: SideEffectID? { "search" }
        var cancelsInFlight: Bool { latestWins }
        func sideEffect(_ context: Context) async throws {
            began.append(query)
            try await Task.sleep(for: .seconds(60))
        }
    }

    /// Keeps every end its store reports, and the sequence the interceptors saw for each item.
    struct EndWatcher: Interceptor {
        let ends: LockedList<SideEffectEnd>
        let sequences: LockedList<UInt64>
        var blocksNaps = false

        mutating func start(in context: any AnySideEffectContext) {
            let ends = ends
            #expect(context.observeSideEffectEnds { ends.append($0) })
        }

        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            if item is any AnySideEffect, let current = InterceptedItem.current {
                sequences.append(current.sequence)
            }
            if blocksNaps, item is Nap { return }
            try next(item)
        }
    }

    final class Watched: Sendable {
        let ends = LockedList<SideEffectEnd>()
        /// The searches whose bodies began.
        let began = LockedList<String>()
        let sequences = LockedList<UInt64>()
        let store: CounterStore

        init(blocksNaps: Bool = false) {
            let watcher = EndWatcher(ends: ends, sequences: sequences, blocksNaps: blocksNaps)
            store = CounterStore(interceptors: Interceptors { watcher })
        }

        /// The one end reported so far; fails the test when there is not exactly one.
        func onlyEnd(sourceLocation: SourceLocation = #_sourceLocation) throws -> SideEffectEnd {
            let all = ends.all
            try #require(all.count == 1, "ends: \(all.map(\.outcome))", sourceLocation: sourceLocation)
            return all[0]
        }
    }

    @Test func aSynchronousSideEffectThatReturns_endsSucceeded_withItsSequenceAndDuration() async throws {
        let watched = Watched()
        try await watched.store.dispatch(Nap()).value
        let end = try watched.onlyEnd()
        #expect(end.outcome.description == "succeeded")
        #expect(end.item is Nap)
        #expect(end.sequence == watched.sequences.all.first)
        #expect(end.duration >= .milliseconds(20))
        #expect(end.began)
    }

    @Test func aSynchronousSideEffectThatThrows_endsFailed_withItsError() async throws {
        let watched = Watched()
        await #expect(throws: TestError(code: 1)) { try await watched.store.dispatch(Nap(fails: true)).value }
        guard case .failed(let error) = try watched.onlyEnd().outcome else {
            Issue.record("not failed: \(try watched.onlyEnd().outcome)")
            return
        }
        #expect(error as? TestError == TestError(code: 1))
    }

    @Test func anAsyncSideEffect_endsWhenItsWholeTaskEnds_notAtItsFirstSuspension() async throws {
        let watched = Watched()
        try await watched.store.dispatch(AsyncNap()).value
        let end = try watched.onlyEnd()
        #expect(end.outcome.description == "succeeded")
        #expect(end.duration >= .milliseconds(40))
        await #expect(throws: TestError(code: 2)) { try await watched.store.dispatch(AsyncNap(fails: true)).value }
        #expect(watched.ends.all.last?.outcome.description == "failed: \(TestError(code: 2))")
    }

    @Test func aSideEffectCancelledByItsPromise_endsCancelledByItsPromise() async throws {
        let watched = Watched()
        let promise = watched.store.dispatch(Search(began: watched.began))
        try await watched.began.waitUntil { $0 == [""] }
        promise.cancel()
        try await watched.ends.waitForCount(1)
        let end = try watched.onlyEnd()
        #expect(end.outcome.description == "cancelled by its promise")
        #expect(end.began)
    }

    @Test func sideEffectsCancelledByID_andByLatestWins_sayWhichCancelledThem() async throws {
        let watched = Watched()
        let first = watched.store.dispatch(Search(query: "a", began: watched.began))
        try await watched.began.waitUntil { $0 == ["a"] }
        #expect(watched.store.cancelSideEffects(id: "search") == 1)
        await #expect(throws: KatanaError.self) { try await first.value }
        try await watched.ends.waitForCount(1)
        let second = watched.store.dispatch(Search(query: "b", began: watched.began))
        try await watched.began.waitUntil { $0 == ["a", "b"] }
        let third = watched.store.dispatch(Search(query: "c", latestWins: true, began: watched.began))
        await #expect(throws: KatanaError.self) { try await second.value }
        try await watched.ends.waitForCount(2)
        let outcomes = watched.ends.all.map { "\(($0.item as? Search)?.query ?? "?"): \($0.outcome)" }
        #expect(outcomes == ["a: cancelled by its id", "b: cancelled by latest wins"])
        third.cancel()
    }

    @Test func aShutdownThatCancelsWork_endsRunningSideEffectsCancelledByTheShutdown() async throws {
        let watched = Watched()
        let promise = watched.store.dispatch(Search(began: watched.began))
        try await watched.began.waitUntil { $0 == [""] }
        await watched.store.shutdown(.cancelWork, deadline: .zero, gracePeriod: .seconds(10))
        await #expect(throws: KatanaError.self) { try await promise.value }
        try await watched.ends.waitForCount(1)
        #expect(try watched.onlyEnd().outcome.description == "cancelled by a shutdown")
    }

    @Test func updatersAndBlockedSideEffects_haveNoEnd() async throws {
        let watched = Watched(blocksNaps: true)
        try await watched.store.dispatch(Bump()).value
        await #expect(throws: KatanaError.self) { try await watched.store.dispatch(Nap()).value }
        try await watched.store.dispatch(AsyncNap()).value
        #expect(watched.ends.all.map { "\(type(of: $0.item))" } == ["AsyncNap"])
    }

    @Test func aClosureInterceptorObservesEndsThroughItsContext() async throws {
        let ends = LockedList<SideEffectEnd>()
        let store = CounterStore(interceptors: [
            { context in
                context.observeSideEffectEnds { ends.append($0) }
                return { next in { item in try next(item) } }
            },
        ])
        try await store.dispatch(Nap()).value
        #expect(ends.all.count == 1)
    }

    @Test func aContextOutsideAStore_keepsNoObserver() {
        let context = Context(dependencies: EmptySideEffectDependencyContainer(dispatch: { _ in Promise(resolved: ()) }, getState: { Counter() }),
                              getState: { Counter() }, dispatch: { _ in Promise(resolved: ()) })
        #expect(!context.observeSideEffectEnds { _ in })
    }

    // docs/StoreAndThreading.md, "How a side effect ended", as written.
    struct SlowSideEffects: Interceptor {
        let report: @Sendable (String) -> Void

        mutating func start(in context: any AnySideEffectContext) {
            let report = report
            context.observeSideEffectEnds { end in
                if end.duration > .milliseconds(50) {
                    report("\(type(of: end.item)) #\(end.sequence) took \(end.duration): \(end.outcome)")
                }
            }
        }

        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try next(item)
        }
    }

    struct LongNap: AsyncSideEffect {
        func sideEffect(_ context: Context) async throws {
            try await Task.sleep(for: .milliseconds(60))
        }
    }

    @Test func theArticlesInterceptorReportsOnlyTheSlowSideEffect() async throws {
        let lines = LockedList<String>()
        let store = CounterStore(interceptors: Interceptors { SlowSideEffects { lines.append($0) } })
        try await store.dispatch(Nap()).value
        try await store.dispatch(LongNap()).value
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.hasPrefix("LongNap #1 took ") == true)
        #expect(lines.all.first?.hasSuffix(": succeeded") == true)
    }
}
