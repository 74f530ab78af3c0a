import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

// The compiled snippets of Migration.md's entries for Hydra's promise operators, which Katana 6 code
// calls on dispatch promises and which compile unchanged (see MigrationGuideTests.swift for how the
// guide is checked against this folder). One namespace and one test per entry.

extension Guide {
    /// What the Hydra entries share: a few items and a thread-safe log.
    enum HydraOperators {
        typealias AddTodo = Guide.ActionToStateUpdater.After.AddTodo

        /// Lines appended from any thread, in order.
        typealias Lines = LockedList<String>

        struct NetworkDown: Error {}
        struct SlowNetwork: Error {}

        /// Returns the to-dos from the API.
        struct FetchTodos: ReturningSideEffect {
            func sideEffect(_ context: any AnySideEffectContext) throws -> [String] {
                try API().fetchTodos()
            }
        }

        /// Fails with `NetworkDown` on its first `failures` runs, then returns the to-dos.
        struct FlakyFetch: ReturningSideEffect {
            let runs: Changes
            let failures: Int
            func sideEffect(_ context: any AnySideEffectContext) throws -> [String] {
                runs.increment()
                guard runs.value > failures else { throw NetworkDown() }
                return try API().fetchTodos()
            }
        }

        struct SetBadge: StateUpdater {
            let count: Int
            func updateState(_ state: inout AppState) {
                state.badge = count
            }
        }

        static func neverAnswers() -> Promise<[String]> {
            Promise { _, _ in }
        }
    }
}

// MARK: - The entries

extension Guide.HydraOperators {
    static func thenVoidBody(store: Store<Guide.AppState, Guide.AppDependencies>, log: Lines) -> Promise<Int> {
        store.dispatch(FetchTodos()).then { todos in
            log.append("fetched \(todos.count)")
            log.append("first: \(todos.first ?? "none")")
        }.then { todos in
            todos.count
        }
    }

    static func void(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<Void> {
        let done: Promise<Void> = store.dispatch(FetchTodos()).void
        return done
    }

    static func timeout(store: Store<Guide.AppState, Guide.AppDependencies>, log: Lines) throws -> [[String]] {
        let todos = store.dispatch(FetchTodos()).timeout(timeout: 10)
        let strict = store.dispatch(FetchTodos()).timeout(in: DispatchQueue.global(qos: .utility), timeout: 5, error: SlowNetwork())
        do {
            _ = try neverAnswers().timeout(timeout: 0.05).wait(timeout: .seconds(10))
        } catch KatanaError.promiseTimedOut {
            log.append("timed out")
        }
        return [try todos.wait(timeout: .seconds(10)), try strict.wait(timeout: .seconds(10))]
    }

    static func validate(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<[String]> {
        store.dispatch(FetchTodos()).validate { todos in
            !todos.isEmpty
        }
    }

    static func pass(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<[String]> {
        store.dispatch(FetchTodos()).pass { todos in
            store.dispatch(SetBadge(count: todos.count))
        }
    }

    static func deferred(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<[String]> {
        let later = store.dispatch(FetchTodos()).defer(0.1)
        return later
    }

    static func retryWhen(store: Store<Guide.AppState, Guide.AppDependencies>, fetch: FlakyFetch) -> Promise<[String]> {
        store.dispatch(fetch).retryWhen(3) { remainingAttempts, error in
            Promise(resolved: error is NetworkDown)
        }
    }

    static func retryWithCondition(store: Store<Guide.AppState, Guide.AppDependencies>, fetch: FlakyFetch) -> Promise<[String]> {
        store.dispatch(fetch).retry(3) { remainingAttempts, error in
            error is NetworkDown
        }
    }

    static func zipped(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<([String], Int, Void)> {
        let both = Promise<Void>.zip(store.dispatch(FetchTodos()), Guide.API().todosPromise())
        let three = Promise<Void>.zip(
            a: store.dispatch(FetchTodos()),
            b: both.then { pair in pair.0.count + pair.1.count },
            c: store.dispatch(SetBadge(count: 1))
        )
        return three
    }

    static func mapItems(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<[[String]]> {
        let titles = ["Buy milk", "Call mum"]
        let added = map(as: .series, titles) { title in
            store.dispatch(AddTodo(title: title))
        }
        let fetched = map(as: .parallel, [1, 2]) { _ in
            store.dispatch(FetchTodos())
        }
        return added.then { _ in fetched }
    }

    static func race(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<[String]> {
        let fastest = any(store.dispatch(FetchTodos()), neverAnswers())
        return fastest
    }

    static func fold(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<Int> {
        let added = reduce(["Buy milk", "Call mum"], 0) { count, title in
            store.dispatch(AddTodo(title: title)).then { _ in count + 1 }
        }
        return added
    }

    @available(*, deprecated, message: "Shows the deprecated thenDispatch")
    static func thenDispatchBefore(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<Void> {
        store.dispatch(AddTodo(title: "x")).thenDispatch(AddTodo(title: "y")).thenDispatch(AddTodo(title: "z"))
    }

    static func thenDispatchAfter(store: Store<Guide.AppState, Guide.AppDependencies>) -> Promise<Void> {
        store.dispatch(AddTodo(title: "x")).then { _ in
            store.dispatch(AddTodo(title: "y"))
        }.then { _ in
            store.dispatch(AddTodo(title: "z"))
        }
    }
}

extension Guide {
    /// Katana 3.x's `awaitDispatch` (`KatanaLegacy`) and its replacements.
    enum AwaitDispatch {
        typealias FetchTodos = HydraOperators.FetchTodos
        typealias SetTodos = HydraAwait.SetTodos

        enum Before {
            @available(*, deprecated, message: "Shows the deprecated awaitDispatch")
            struct Refresh: SideEffect {
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) throws {
                    let todos = try context.awaitDispatch(FetchTodos())
                    try context.awaitDispatch(SetTodos(todos: todos))
                }
            }
        }

        /// A blocking wait with a deadline, or an await.
        enum After {
            struct Refresh: SideEffect {
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) throws {
                    let todos = try context.dispatch(FetchTodos()).wait(timeout: .seconds(10))
                    try context.dispatch(SetTodos(todos: todos)).wait(timeout: .seconds(10))
                }
            }

            struct RefreshAsync: AsyncSideEffect {
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) async throws {
                    let todos = try await context.dispatch(FetchTodos()).value
                    try await context.dispatch(SetTodos(todos: todos)).value
                }
            }
        }
    }
}

// MARK: - The tests, one per entry

@Suite struct MigrationGuideHydraTests {
    typealias Entry = Guide.HydraOperators
    private let timeout: Duration = .seconds(10)

    @Test func hydraThenVoidBody() async throws {
        let log = Entry.Lines()
        #expect(try await Entry.thenVoidBody(store: Guide.store(), log: log).settled() == 2)
        #expect(log.all == ["fetched 2", "first: Buy milk"])
    }

    @Test func hydraVoid() async throws {
        try await Entry.void(store: Guide.store()).settled()
    }

    @Test func hydraTimeout() async throws {
        let log = Entry.Lines()
        // The entry's code blocks (it waits for its promises): it runs on a thread of its own.
        let store = Guide.store()
        let results = try await onThreadOfItsOwn("the timeout entry") { try Entry.timeout(store: store, log: log) }
        #expect(results == [["Buy milk", "Call mum"], ["Buy milk", "Call mum"]])
        #expect(log.all == ["timed out"])
    }

    @Test func hydraValidate() async throws {
        #expect(try await Entry.validate(store: Guide.store()).settled().count == 2)
    }

    @Test func hydraPass() async throws {
        let store = Guide.store()
        #expect(try await Entry.pass(store: store).settled().count == 2)
        #expect(store.state.badge == 2)
    }

    @Test func hydraDefer() async throws {
        #expect(try await Entry.deferred(store: Guide.store()).settled().count == 2)
    }

    @Test func hydraRetryWhen() async throws {
        let store = Guide.store()
        let runs = Guide.Changes()
        let fetched = try await Entry.retryWhen(store: store, fetch: Entry.FlakyFetch(runs: runs, failures: 2)).settled()
        #expect(fetched.count == 2)
        #expect(runs.value == 3)
        let retried = Guide.Changes()
        _ = try await Entry.retryWithCondition(store: store, fetch: Entry.FlakyFetch(runs: retried, failures: 1)).settled()
        #expect(retried.value == 2)
    }

    @Test func hydraZip() async throws {
        let store = Guide.store()
        let (fetched, total, _) = try await Entry.zipped(store: store).settled()
        #expect(fetched.count == 2 && total == 4)
        #expect(store.state.badge == 1)
    }

    @Test func hydraMap() async throws {
        let store = Guide.store()
        #expect(try await Entry.mapItems(store: store).settled().count == 2)
        #expect(store.state.todos == ["Buy milk", "Call mum"])
    }

    @Test func hydraAny() async throws {
        #expect(try await Entry.race(store: Guide.store()).settled().count == 2)
    }

    @Test func hydraReduce() async throws {
        let store = Guide.store()
        #expect(try await Entry.fold(store: store).settled() == 2)
        #expect(store.state.todos == ["Buy milk", "Call mum"])
    }

    @available(*, deprecated, message: "Exercises the deprecated thenDispatch")
    @Test func hydraThenDispatch() async throws {
        for dispatch in [Entry.thenDispatchBefore, Entry.thenDispatchAfter] {
            let store = Guide.store()
            try await dispatch(store).settled()
            #expect(store.state.todos == ["x", "y", "z"])
        }
    }

    /// Async, and awaiting (with a deadline) without blocking: `RefreshAsync`'s task needs a thread
    /// of the cooperative pool, which blocking waits in parallel tests could hold.
    @available(*, deprecated, message: "Exercises the deprecated awaitDispatch")
    @Test func awaitDispatch() async throws {
        let refreshes: [any AnySideEffect] = [
            Guide.AwaitDispatch.Before.Refresh(),
            Guide.AwaitDispatch.After.Refresh(),
            Guide.AwaitDispatch.After.RefreshAsync(),
        ]
        for refresh in refreshes {
            let store = Guide.store()
            try await store.anyDispatch(refresh).settled()
            #expect(store.state.todos == ["Buy milk", "Call mum"])
        }
    }
}
