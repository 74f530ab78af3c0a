import Dispatch
import Foundation
import Katana
@testable import KatanaLegacy
import KatanaTestSupport
import Testing

// The deprecated Swift Flow API is what these tests exercise.
@Suite struct SwiftFlowSubscriberTests {
    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriber_getsTheCurrentStateOnSubscribing_thenEveryChangeInOrder() async throws {
        let store = makeStore(initial: LegacyState(counter: 5))
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber)
        // The first call happens inside subscribe.
        #expect(subscriber.counters.all == [5])
        for _ in 0..<100 {
            store.dispatch(AddAction(amount: 1))
        }
        try await drainListeners(of: store)
        try await subscriber.counters.waitForCount(102)
        #expect(subscriber.counters.count == 102)
        #expect(subscriber.counters.all == Array(5...105) + [105])
        store.unsubscribe(subscriber)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func labelledSubscribe_andUnsubscribe_workLikeTheUnlabelledOnes() async throws {
        let store = makeStore()
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber: subscriber)
        try await store.dispatch(AddAction(amount: 2)).settled()
        try await subscriber.counters.waitUntil { $0 == [0, 2] }
        store.unsubscribe(subscriber: subscriber)
        try await store.dispatch(AddAction(amount: 2)).settled()
        try await drainListeners(of: store)
        #expect(subscriber.counters.all == [0, 2])
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func laterSubscriber_startsFromTheStateListenersLastSaw_withNoRepeatAndNoGap() async throws {
        for _ in 0..<20 {
            let store = makeStore()
            let first = CounterSubscriber()
            store.subscribe(first)
            let second = CounterSubscriber()
            for index in 0..<200 {
                store.dispatch(AddAction(amount: 1))
                if index == 100 {
                    store.subscribe(second)
                }
            }
            try await drainListeners(of: store)
            for subscriber in [first, second] {
                // Consecutive counters: every change once, in order, up to the last one (then the barrier's).
                let changes = Array(subscriber.counters.all.dropLast())
                #expect(changes.last == 200)
                #expect(zip(changes, changes.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(changes)")
            }
            #expect(first.counters.all.first == 0)
        }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscribingTwice_doesNothing() async throws {
        let store = makeStore()
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber)
        store.subscribe(subscriber)
        store.subscribe(subscriber: subscriber)
        #expect(subscriber.counters.all == [0])
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await drainListeners(of: store)
        #expect(subscriber.counters.all == [0, 1, 1])
        #expect(swiftFlowSubscriptions(of: store) == 1)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func unsubscribingTwice_orANeverSubscribedObject_doesNothing() async throws {
        let store = makeStore()
        let stranger = CounterSubscriber()
        store.unsubscribe(stranger)
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber)
        store.unsubscribe(stranger)
        store.unsubscribe(subscriber)
        store.unsubscribe(subscriber)
        store.unsubscribe(subscriber: subscriber)
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await drainListeners(of: store)
        #expect(subscriber.counters.all == [0])
        #expect(stranger.counters.all.isEmpty)
        #expect(swiftFlowSubscriptions(of: store) == 0)
        // Subscribing again after unsubscribing works, from the current state.
        store.subscribe(subscriber)
        #expect(subscriber.counters.all == [0, 1])
        store.unsubscribe(subscriber)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func unsubscribed_isNeverCalledAfterUnsubscribeReturns_evenWithChangesInFlight() async throws {
        for round in 0..<30 {
            let store = makeStore()
            // A subscriber slow enough that changes queue up behind its calls.
            let subscriber = CounterSubscriber { _, _ in usleep(20) }
            store.subscribe(subscriber)
            // `unsubscribe` blocks until a call in flight has returned: the dispatching and the
            // unsubscribing run on a thread of their own.
            try await onThreadOfItsOwn("round \(round)'s dispatches and unsubscribe") {
                for index in 0..<300 {
                    store.dispatch(AddAction(amount: 1))
                    if index == 50 + round * 5 {
                        store.unsubscribe(subscriber)
                        subscriber.close()
                    }
                }
            }
            try await drainListeners(of: store)
            #expect(subscriber.callsAfterClose.all.isEmpty, "round \(round): \(subscriber.callsAfterClose.all)")
            #expect(swiftFlowSubscriptions(of: store) == 0)
        }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func unsubscribeFromInsideNewState_stopsTheCallsThatFollow() async throws {
        let store = makeStore()
        let subscriber = CounterSubscriber { subscriber, state in
            if state.counter == 3 {
                store.unsubscribe(subscriber)
                subscriber.close()
            }
        }
        store.subscribe(subscriber)
        for _ in 0..<10 {
            store.dispatch(AddAction(amount: 1))
        }
        try await drainListeners(of: store)
        #expect(subscriber.counters.all == [0, 1, 2, 3])
        #expect(subscriber.callsAfterClose.all.isEmpty)
        #expect(swiftFlowSubscriptions(of: store) == 0)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func deallocatedSubscriber_isNotCalledNorKept_andItsRegistrationIsCleanedUp() async throws {
        let store = makeStore()
        let keeper = CounterSubscriber()
        store.subscribe(keeper)
        weak var released: CounterSubscriber?
        let seen: LockedList<Int>
        do {
            let subscriber = CounterSubscriber()
            store.subscribe(subscriber)
            try await store.dispatch(AddAction(amount: 1)).settled()
            try await drainListeners(of: store)
            seen = subscriber.counters
            released = subscriber
        }
        // Held weakly: nothing keeps it alive once the test lets go (a call in flight might, briefly).
        try await poll("the subscriber to be released") { released == nil }
        #expect(swiftFlowSubscriptions(of: store) == 2)
        // The next change notices it is gone and forgets it.
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await drainListeners(of: store)
        // Nothing signals the registry's clean-up: its count is looked at until it drops.
        try await poll("the registry to forget the released subscriber") { swiftFlowSubscriptions(of: store) == 1 }
        #expect(seen.all == [0, 1, 1])
        #expect(keeper.counters.all.suffix(2) == [2, 2])
        store.unsubscribe(keeper)
        #expect(swiftFlowSubscriptions(of: store) == 0)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriberThatUnsubscribesInDeinit_doesNotDeadlock() async throws {
        let store = makeStore()
        for _ in 0..<50 {
            let subscriber = SelfRemovingSubscriber(store: store)
            store.subscribe(subscriber)
            store.dispatch(AddAction(amount: 1))
        }
        try await drainListeners(of: store)
        try await poll("every subscriber to be unsubscribed") { swiftFlowSubscriptions(of: store) == 0 }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func registry_goesAwayWithTheStore() async throws {
        weak var weakRegistry: SubscriberRegistry?
        weak var weakStore: LegacyStore?
        let subscriber = CounterSubscriber()
        do {
            let store = makeStore()
            store.subscribe(subscriber)
            try await store.dispatch(AddAction(amount: 1)).settled()
            weakRegistry = SubscriberRegistryDirectory.shared.existingRegistry(for: store)
            weakStore = store
            #expect(weakRegistry != nil)
        }
        try await poll("the store and its registry to be released") { weakStore == nil && weakRegistry == nil }
        try await subscriber.counters.waitUntil { $0 == [0, 1] }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriberOfAnotherStateType_isSkipped() async throws {
        let store = makeStore()
        let foreign = ForeignSubscriber()
        store.subscribe(foreign)
        try await store.dispatch(AddAction(amount: 1)).settled()
        try await drainListeners(of: store)
        #expect(foreign.calls.all.isEmpty)
        store.unsubscribe(foreign)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriberOfAStoreNotReadyYet_getsItsFirstStateWithTheFirstChange() async throws {
        // The store becomes ready when the test opens the gate (and, whatever happens, when it
        // ends): not by itself while the test still checks what a store that is not ready does.
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let store = LegacyStore(
            interceptors: [],
            stateInitializer: {
                _ = gate.wait(timeout: .now() + 600)
                return LegacyState(counter: 7)
            },
            configuration: .init(
                stateInitializerAsyncProvider: DispatchQueue(label: "swiftflow.tests.initializer"),
                listenersAsyncProvider: DispatchQueue(label: "swiftflow.tests.listeners")
            )
        )
        #expect(!store.isReady)
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber)
        #expect(subscriber.counters.all.isEmpty)
        // No state to call an action creator with: not called, and the promise says why.
        let creatorCalls = LockedList<Int>()
        let promise = store.dispatch { _, _ in
            creatorCalls.append(1)
            return AddAction(amount: 1)
        }
        await #expect(throws: SwiftFlowError.storeNotReady) { try await promise?.settled() }
        #expect(creatorCalls.all.isEmpty)
        // Items dispatched meanwhile wait for the store; the subscriber gets the state before the first
        // change, then the change.
        store.dispatch(AddAction(amount: 1))
        gate.signal()
        try await store.dispatch(Barrier()).settled()
        try await subscriber.counters.waitForCount(3)
        #expect(subscriber.counters.all == [7, 8, 8])
        store.unsubscribe(subscriber)
    }
}
