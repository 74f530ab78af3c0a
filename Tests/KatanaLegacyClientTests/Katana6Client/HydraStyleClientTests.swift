import Foundation
import Katana
import KatanaTestSupport
import Testing

/// Katana 6 code calling Hydra's operators on dispatch promises, exactly as Katana 6 apps wrote
/// them; only `import Hydra` is gone. The apps' waits block: each chain runs on a thread of its
/// own, and the test checks what it returned.
@Suite struct HydraStyleClientTests {
    let timeout: Duration = .seconds(10)

    @Test func thenWithAMultiLineBody_passesTheValueOn() async throws {
        let store = makeLibraryStore()
        let log = LockedList<String>()
        let timeout = self.timeout
        let count = try await onThreadOfItsOwn("the Katana 6 chain") {
            try store.dispatch(FetchCatalogue()).then { books in
                log.append("fetched \(books.count)")
                log.append("first \(books[0])")
            }.then { books in
                books.count
            }.wait(timeout: timeout)
        }
        #expect(count == 3)
        #expect(log.all == ["fetched 3", "first Dune"])
    }

    @Test func thenReturningADispatch_waitsForIt() async throws {
        let store = makeLibraryStore()
        let timeout = self.timeout
        try await onThreadOfItsOwn("the Katana 6 chain") {
            try store.dispatch(AddBook(title: "Dune")).then { _ in
                store.dispatch(AddBook(title: "Emma"))
            }.wait(timeout: timeout)
        }
        #expect(store.state.books == ["Dune", "Emma"])
    }

    @Test func voidTimeoutAndValidate() async throws {
        let store = makeLibraryStore()
        let timeout = self.timeout
        let (books, timedOut) = try await onThreadOfItsOwn("the Katana 6 chains") { () throws -> ([String], Bool) in
            let done: Promise<Void> = store.dispatch(FetchCatalogue()).void
            try done.wait(timeout: timeout)

            let books = try store.dispatch(FetchCatalogue()).timeout(timeout: 5).validate { books in
                !books.isEmpty
            }.wait(timeout: timeout)

            let never = Promise<Int> { _, _ in }
            do {
                _ = try never.timeout(timeout: 0.05).wait(timeout: timeout)
                return (books, false)
            } catch KatanaError.promiseTimedOut {
                // Hydra's PromiseError.timeout.
                return (books, true)
            }
        }
        #expect(books.count == 3)
        #expect(timedOut, "the timeout did not fire")
    }

    @Test func passAndDefer() async throws {
        let store = makeLibraryStore()
        let timeout = self.timeout
        let books = try await onThreadOfItsOwn("the Katana 6 chain") {
            try store.dispatch(FetchCatalogue()).pass { books in
                store.dispatch(SetBadge(count: books.count))
            }.defer(0.01).wait(timeout: timeout)
        }
        #expect(books.count == 3)
        #expect(store.state.badge == 3)
    }

    @Test func retryWhen_dispatchesTheSideEffectAgain() async throws {
        let store = makeLibraryStore()
        let runs = LockedList<String>()
        let timeout = self.timeout
        let books = try await onThreadOfItsOwn("the Katana 6 chain") {
            try store.dispatch(FlakyFetchCatalogue(runs: runs, failures: 2)).retryWhen(3) { _, error in
                return Promise(resolved: error is CatalogueDown)
            }.wait(timeout: timeout)
        }
        #expect(books == ["Dune"])
        #expect(runs.all.count == 3)

        let retried = LockedList<String>()
        _ = try await onThreadOfItsOwn("the Katana 6 chain") {
            try store.dispatch(FlakyFetchCatalogue(runs: retried, failures: 1)).retry(3) { _, error in
                error is CatalogueDown
            }.wait(timeout: timeout)
        }
        #expect(retried.all.count == 2)
    }

    @Test func zipAnyMapAndReduce() async throws {
        let store = makeLibraryStore()
        let timeout = self.timeout
        let (books, _) = try await onThreadOfItsOwn("the Katana 6 zip") {
            try Promise<Void>.zip(store.dispatch(FetchCatalogue()), store.dispatch(SetBadge(count: 1)))
                .wait(timeout: timeout)
        }
        #expect(books.count == 3)

        let (a, b, _) = try await onThreadOfItsOwn("the Katana 6 zip") {
            try Promise<Void>.zip(
                a: store.dispatch(FetchCatalogue()),
                b: Promise(resolved: 2),
                c: store.dispatch(AddBook(title: "Zip"))
            ).wait(timeout: timeout)
        }
        #expect(a.count == 3 && b == 2)

        let first = try await onThreadOfItsOwn("the Katana 6 any") {
            try any(store.dispatch(FetchCatalogue()), Promise<[String]> { _, _ in }).wait(timeout: timeout)
        }
        #expect(first.count == 3)

        let added = map(as: .series, ["Dune", "Emma"]) { title in
            store.dispatch(AddBook(title: title))
        }
        #expect(try await onThreadOfItsOwn("the Katana 6 map") { try added.wait(timeout: timeout) }.count == 2)

        let total = try await onThreadOfItsOwn("the Katana 6 reduce") {
            try reduce(["Ulysses"], 0) { count, title in
                store.dispatch(AddBook(title: title)).then { _ in count + 1 }
            }.wait(timeout: timeout)
        }
        #expect(total == 1)
        #expect(store.state.books == ["Zip", "Dune", "Emma", "Ulysses"])
    }

    @Test func thenDispatch_fromKatana3_stillDispatches() async throws {
        let store = makeLibraryStore()
        let timeout = self.timeout
        try await onThreadOfItsOwn("the Katana 3 chain") {
            // Deprecated: compiles with a warning that names `then { _ in store.dispatch(item) }`.
            try store.dispatch(AddBook(title: "Dune")).thenDispatch(AddBook(title: "Emma")).wait(timeout: timeout)
        }
        #expect(store.state.books == ["Dune", "Emma"])
    }
}
