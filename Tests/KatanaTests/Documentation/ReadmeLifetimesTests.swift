import Dispatch
@testable import Katana
import KatanaTestSupport
import Testing

/// docs/Lifetimes.md ("Cancelling work"), compiled and run as written.
enum ReadmeLifetimes {
    struct SearchState: State {
        var query = ""
        var results: [String] = []
    }

    struct ShowResults: StateUpdater {
        let query: String
        let results: [String]
        func updateState(_ state: inout SearchState) {
            state.query = query
            state.results = results
        }
    }

    /// The article's dependencies, with one difference: after `closeBackend()`, the slow backend
    /// answers when the test opens `backend` (a cancellable wait, as the article's sleep is), so
    /// which searches are still running when a newer one starts does not depend on timing. Until
    /// then it answers at once.
    final class SearchDependencies: SideEffectDependencyContainer {
        private let gate: LockedValue<AsyncGate>
        init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
            let open = AsyncGate()
            open.open()
            gate = LockedValue(open)
        }
        func search(_ query: String) async throws -> [String] {
            try await backend.wait()   // a slow backend; the wait is cancellable
            return ["\(query)ana", "\(query)ana-swift"]
        }

        /// The gate searches wait at from now on.
        var backend: AsyncGate {
            gate.withLock { $0 }
        }

        /// Searches from now on wait at a new, closed gate.
        func closeBackend() {
            gate.withLock { $0 = AsyncGate() }
        }
    }

    struct Search: AsyncSideEffect {
        let query: String
        var cancellationID: SideEffectID? { "search" }
        var cancelsInFlight: Bool { true }   // latest wins
        func sideEffect(_ context: SideEffectContext<SearchState, SearchDependencies>) async throws {
            let results = try await context.dependencies.search(query)
            try await context.dispatch(ShowResults(query: query, results: results)).value
        }
    }
}

@Suite struct ReadmeLifetimesTests {
    typealias SearchState = ReadmeLifetimes.SearchState
    typealias SearchDependencies = ReadmeLifetimes.SearchDependencies
    typealias Search = ReadmeLifetimes.Search

    private func makeStore() -> Store<SearchState, SearchDependencies> {
        // The article's `Store<SearchState, SearchDependencies>()`, with listeners on a queue of
        // the test's own so that it behaves the same on every platform.
        Store(interceptors: [], stateInitializer: { SearchState() }, configuration: .init(listenersAsyncProvider: DispatchQueue(label: "readme.lifetimes")))
    }

    @Test func cancelling_latestWins_andShutdown_runAsWritten() async throws {
        let store = makeStore()
        let printed = LockedList<String>()
        store.dependencies.closeBackend()
        let first = store.dispatch(Search(query: "k"))
        let second = store.dispatch(Search(query: "ka"))
        let third = store.dispatch(Search(query: "kat"))
        // A cancelled search leaves the backend after its promise was rejected.
        let backend = store.dependencies.backend
        try await backend.waitUntil("the first two searches cancelled, the third waiting") {
            first.isCancelled && second.isCancelled && backend.waitingCount == 1
        }
        store.dependencies.backend.open()
        try await third.value                                  // the two searches before it were cancelled
        printed.append("\(store.state.query) \(first.isCancelled)")
        #expect(printed.all == ["kat true"])
        #expect(second.isCancelled)
        #expect(store.state.results == ["katana", "katana-swift"])

        store.dependencies.closeBackend()
        let slow = store.dispatch(Search(query: "x"))
        slow.cancel()                                          // or: store.cancelSideEffects(id: "search")
        #expect(slow.isCancelled)

        let report = await store.shutdown(.finishWork, deadline: .seconds(10))
        #expect("store stopped: \(report)" == "store stopped: handled 0, cancelled 0, still running 0")
        #expect(store.state.query == "kat")
    }

    @Test func cancelSideEffectsByID_cancelsTheRunningSearch() async throws {
        let store = makeStore()
        store.dependencies.closeBackend()
        let slow = store.dispatch(Search(query: "x"))
        // Running: its task has begun (and sleeps in the backend call).
        try await poll("the search's task to begin") { store.engine.sideEffects.withLock { $0 }?.registry.withLock { $0.phases.task } == 1 }
        #expect(store.cancelSideEffects(id: "search") == 1)
        #expect(try await rejection(of: slow)?.katana == .cancelled(item: "KatanaTests.ReadmeLifetimes.Search"))
    }

    @Test func observingPartOfTheState_runsAsWritten() async throws {
        let store = makeStore()
        let printed = LockedList<String>()
        store.addListener(of: \.query) { old, new in printed.append("query: \(old) -> \(new)") }
        let results = store.stateUpdates(of: \.results)
        let reader = Task {
            for await (old, new) in results {
                printed.append("\(old.count) -> \(new.count) results")
            }
        }
        try await store.dispatch(Search(query: "kat")).value
        try await store.dispatch(Search(query: "kat")).value   // the same query and results: nothing to report
        await store.shutdown()
        try await withTimeout("the reader") { await reader.value }
        #expect(printed.all == ["query:  -> kat", "0 -> 2 results"])
    }
}
