import DocumentationSupport
import Foundation
import Katana
import KatanaTestSupport
import Testing

/// The README's "Your first store", compiled and run: its types are the ones in `FirstStore`, its
/// statements the body of `firstStore_runsAsWritten`, and the README's block is these two marked
/// snippets, line for line.
enum FirstStore {
    // snippet: first store
    struct CounterState: State {        // one value for everything the program knows
        var counter = 0
    }

    struct Increment: StateUpdater {    // a pure, quick change of the state, applied in place
        var amount = 1
        func updateState(_ state: inout CounterState) {
            state.counter += amount
        }
    }
    // end snippet
}

@Suite struct FirstStoreTests {
    typealias CounterState = FirstStore.CounterState
    typealias Increment = FirstStore.Increment

    @Test func firstStore_runsAsWritten() async throws {
        let printed = LockedList<String>()
        @Sendable func print(_ line: Any) { printed.append("\(line)") }

        // The snippet blocks in `wait`, as a script does: it runs on a thread of its own.
        let script = ThreadOfItsOwnExecutor()
        defer { script.stop() }
        try await withTaskExecutorPreference(script) {
            // snippet: first store
            let store = Store<CounterState, EmptySideEffectDependencyContainer>()   // ready when init returns
            store.addListener { old, new in
                print("counter: \(old.counter) -> \(new.counter)")
            }
            try store.dispatch(Increment()).wait(timeout: .seconds(5))   // blocking, for scripts ...
            try await store.dispatch(Increment(amount: 41)).value        // ... or with async/await
            print(store.state.counter)                                   // 42
            // end snippet
        }

        // Katana's order: each promise was fulfilled once the listener had been called with its change.
        #expect(printed.all == ["counter: 0 -> 1", "counter: 1 -> 42", "42"])
    }

    @Test func theReadmeShowsThisFileLineForLine() throws {
        let readme = try MarkdownDocument("README.md")
        let section = try #require(readme.section("Your first store"), "README has no \"Your first store\" section")
        let block = try #require(MarkdownDocument.swiftBlocks(in: section).first, "no swift block in \"Your first store\"")
        let snippet = try markedSnippet("first store", inFile: "Tests/KatanaTests/Documentation/FirstStoreTests.swift")
        #expect(normalisedLines(block.joined(separator: "\n")) == ["import Katana"] + normalisedLines(snippet.joined(separator: "\n")))
        #expect(block.count <= 25, "the first store is meant to fit on a screen: \(block.count) lines")
    }
}
