import Foundation
import Katana
import KatanaTestSupport
import Testing

/// docs/StoreAndThreading.md's "Using the store", compiled and run, so a change that breaks the
/// article breaks the build: the article's types are KatanaTestSupport's `UsingTheStore`, its
/// statements these tests' bodies.
@Suite struct ReadmeQuickStartTests {
    typealias CounterState = UsingTheStore.CounterState
    typealias Increment = UsingTheStore.Increment
    typealias AppDependencies = UsingTheStore.AppDependencies
    typealias LoadAmount = UsingTheStore.LoadAmount

    @Test func quickStart_runsAsWritten() async throws {
        let store = Store<CounterState, AppDependencies>()
        let changes = LockedList<String>()
        let unsubscribe = store.addListener { old, new in
            changes.append("counter: \(old.counter) -> \(new.counter)")
        }
        // The article's blocking wait, for scripts: on a thread of its own here.
        try await onThreadOfItsOwn("the blocking wait") { try store.dispatch(Increment()).wait(timeout: .seconds(5)) }
        let counter = try await store.dispatch(LoadAmount()).value
        #expect(counter == 42)
        #if os(Linux)
        // On Linux listeners run on the store's own queue by default (no run loop needed).
        try await changes.waitUntil("both changes") { $0 == ["counter: 0 -> 1", "counter: 1 -> 42"] }
        #endif
        unsubscribe()
    }

    @Test func stateUpdates_streamsChangesForAsyncCode() async throws {
        let store = Store<CounterState, AppDependencies>(
            interceptors: [],
            stateInitializer: { CounterState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "readme.listeners"))
        )
        // The sequence listens from the moment it is created, so changes dispatched after this line are seen.
        let updates = store.stateUpdates
        let reader = Task {
            var seen: [Int] = []
            for await (old, new) in updates where old.counter != new.counter {
                seen.append(new.counter)
                if seen.count == 3 { break }
            }
            return seen
        }
        for amount in [1, 0, 2, 3] {
            store.dispatch(Increment(amount: amount))
        }
        let seen = try await withTimeout("the reader") { await reader.value }
        #expect(seen == [1, 3, 6])
    }
}
