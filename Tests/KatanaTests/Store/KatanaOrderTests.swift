import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// The listener executors Katana's order is checked on.
enum ListenerQueueKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case serial
    case concurrent

    var testDescription: String { rawValue }

    var configuration: TestStore.Configuration {
        switch self {
        case .serial:
            return testConfiguration()
        case .concurrent:
            return testConfiguration(listeners: DispatchQueue(label: "test.listeners.concurrent", attributes: .concurrent))
        }
    }
}

/// A store with `count` listeners, each recording the new counter into its own recorder after a
/// short delay (which widens the window in which a promise settled too early would be seen).
private func storeWithRecordingListeners(_ count: Int, on queue: ListenerQueueKind) -> (TestStore, [LockedList<Int>]) {
    let store = makeStore(configuration: queue.configuration)
    let recorders = (0..<count).map { _ in LockedList<Int>() }
    for recorder in recorders {
        store.addListener { _, new in
            usleep(200)
            recorder.append(new.counter)
        }
    }
    return (store, recorders)
}

/// Store semantics 2, Katana's order: an updater's promise is fulfilled only after every listener
/// registered when the update was applied has been called with that change.
@Suite struct KatanaOrderTests {
    @Test(arguments: ListenerQueueKind.allCases, [1, 3])
    func listenerEffects_areVisibleAfterWait_forEachOf50Updates(queue: ListenerQueueKind, listeners: Int) async throws {
        let (store, recorders) = storeWithRecordingListeners(listeners, on: queue)
        var missing: [Int] = []
        for expected in 1...50 {
            try await store.dispatch(Increment()).settled()
            if !recorders.allSatisfy({ $0.all.contains(expected) }) {
                missing.append(expected)
            }
        }
        // Counters whose listener effects were not yet visible when `wait` returned.
        #expect(missing == [])
    }

    @Test(arguments: ListenerQueueKind.allCases, [1, 3])
    func listenerEffects_areVisibleInThen_forEachOf50Updates(queue: ListenerQueueKind, listeners: Int) async throws {
        let (store, recorders) = storeWithRecordingListeners(listeners, on: queue)
        var missing: [Int] = []
        for expected in 1...50 {
            let seenInThen = try await store.dispatch(Increment())
                .then { _ in recorders.allSatisfy { $0.all.contains(expected) } }
                .settled()
            if !seenInThen {
                missing.append(expected)
            }
        }
        // Counters whose listener effects were not yet visible in `then`.
        #expect(missing == [])
    }

    @Test func listenerFlag_isSetWhenWaitReturns_evenForASlowListener() async throws {
        let store = makeStore()
        let latestSeen = LockedList<Int>()
        store.addListener { _, new in
            usleep(5_000)
            latestSeen.append(new.counter)
        }
        try await store.dispatch(Increment(amount: 4)).settled()
        #expect(latestSeen.all == [4])
    }

    @Test func withNoListeners_updaterPromiseSettles() async throws {
        let store = makeStore()
        for _ in 1...50 {
            try await store.dispatch(Increment()).settled()
        }
        #expect(store.state.counter == 50)
    }

    @Test func unsubscribedListener_isNeitherCalledNorAwaited() async throws {
        let store = makeStore()
        let heard = LockedList<Int>()
        let unsubscribe = store.addListener { _, new in
            usleep(1_000)
            heard.append(new.counter)
        }
        try await store.dispatch(Increment()).settled()
        unsubscribe()
        try await store.dispatch(Increment()).settled()
        #expect(store.state.counter == 2)
        #expect(heard.all == [1])
    }

    @Test func stateUpdatesNobodyIterates_doesNotHoldBackDispatchPromises() async throws {
        let store = makeStore()
        let updates = store.stateUpdates
        for _ in 1...50 {
            try await store.dispatch(Increment()).settled()
        }
        withExtendedLifetime(updates) {}
        #expect(store.state.counter == 50)
    }

    @Test func stateUpdatesConsumedSlowly_doesNotHoldBackDispatchPromises() async throws {
        let store = makeStore()
        let updates = store.stateUpdates
        let consumed = LockedValue(0)
        let slowConsumer = Task {
            for await _ in updates {
                consumed.increment()
                try? await Task.sleep(for: .seconds(30))
            }
        }
        defer { slowConsumer.cancel() }
        // All 20 are dispatched before any is awaited, so the test needs no more turns on Swift
        // concurrency's (shared, two-thread) pool than it must: each promise settles whatever the
        // consumer does, and awaiting a settled promise does not wait for anything.
        let promises = (1...20).map { _ in store.dispatch(Increment()) }
        try await withTimeout("WHAT") {
            for promise in promises {
                try await promise.value
            }
        }
        #expect(store.state.counter == 20)
        // The consumer is still on its first element: nothing waited for it.
        #expect(consumed.value <= 1)
    }
}
