import Dispatch
import Foundation
import Katana
@testable import KatanaLegacy
import Testing

// The deprecated Swift Flow API is what these tests exercise.
@Suite struct SwiftFlowSubscriberTests {
    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriber_getsTheCurrentStateOnSubscribing_thenEveryChangeInOrder() throws {
        let store = makeStore(initial: LegacyState(counter: 5))
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber)
        // The first call happens inside subscribe.
        #expect(subscriber.counters.values == [5])
        for _ in 0..<100 {
            store.dispatch(AddAction(amount: 1))
        }
        try drainListeners(of: store)
        #expect(eventually { subscriber.counters.values.count == 102 })
        #expect(subscriber.counters.values == Array(5...105) + [105])
        store.unsubscribe(subscriber)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func labelledSubscribe_andUnsubscribe_workLikeTheUnlabelledOnes() throws {
        let store = makeStore()
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber: subscriber)
        try store.dispatch(AddAction(amount: 2)).wait(timeout: .seconds(10))
        #expect(eventually { subscriber.counters.values == [0, 2] })
        store.unsubscribe(subscriber: subscriber)
        try store.dispatch(AddAction(amount: 2)).wait(timeout: .seconds(10))
        try drainListeners(of: store)
        #expect(subscriber.counters.values == [0, 2])
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func laterSubscriber_startsFromTheStateListenersLastSaw_withNoRepeatAndNoGap() throws {
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
            try drainListeners(of: store)
            for subscriber in [first, second] {
                // Consecutive counters: every change once, in order, up to the last one (then the barrier's).
                let changes = Array(subscriber.counters.values.dropLast())
                #expect(changes.last == 200)
                #expect(zip(changes, changes.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(changes)")
            }
            #expect(first.counters.values.first == 0)
        }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscribingTwice_doesNothing() throws {
        let store = makeStore()
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber)
        store.subscribe(subscriber)
        store.subscribe(subscriber: subscriber)
        #expect(subscriber.counters.values == [0])
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        try drainListeners(of: store)
        #expect(subscriber.counters.values == [0, 1, 1])
        #expect(swiftFlowSubscriptions(of: store) == 1)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func unsubscribingTwice_orANeverSubscribedObject_doesNothing() throws {
        let store = makeStore()
        let stranger = CounterSubscriber()
        store.unsubscribe(stranger)
        let subscriber = CounterSubscriber()
        store.subscribe(subscriber)
        store.unsubscribe(stranger)
        store.unsubscribe(subscriber)
        store.unsubscribe(subscriber)
        store.unsubscribe(subscriber: subscriber)
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        try drainListeners(of: store)
        #expect(subscriber.counters.values == [0])
        #expect(stranger.counters.values.isEmpty)
        #expect(swiftFlowSubscriptions(of: store) == 0)
        // Subscribing again after unsubscribing works, from the current state.
        store.subscribe(subscriber)
        #expect(subscriber.counters.values == [0, 1])
        store.unsubscribe(subscriber)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func unsubscribed_isNeverCalledAfterUnsubscribeReturns_evenWithChangesInFlight() throws {
        for round in 0..<30 {
            let store = makeStore()
            // A subscriber slow enough that changes queue up behind its calls.
            let subscriber = CounterSubscriber { _, _ in usleep(20) }
            store.subscribe(subscriber)
            for index in 0..<300 {
                store.dispatch(AddAction(amount: 1))
                if index == 50 + round * 5 {
                    store.unsubscribe(subscriber)
                    subscriber.close()
                }
            }
            try drainListeners(of: store)
            #expect(subscriber.callsAfterClose.values.isEmpty, "round \(round): \(subscriber.callsAfterClose.values)")
            #expect(swiftFlowSubscriptions(of: store) == 0)
        }
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func unsubscribeFromInsideNewState_stopsTheCallsThatFollow() throws {
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
        try drainListeners(of: store)
        #expect(subscriber.counters.values == [0, 1, 2, 3])
        #expect(subscriber.callsAfterClose.values.isEmpty)
        #expect(swiftFlowSubscriptions(of: store) == 0)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func deallocatedSubscriber_isNotCalledNorKept_andItsRegistrationIsCleanedUp() throws {
        let store = makeStore()
        let keeper = CounterSubscriber()
        store.subscribe(keeper)
        weak var released: CounterSubscriber?
        let seen: Recorder<Int>
        do {
            let subscriber = CounterSubscriber()
            store.subscribe(subscriber)
            try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
            try drainListeners(of: store)
            seen = subscriber.counters
            released = subscriber
        }
        // Held weakly: nothing keeps it alive once the test lets go (a call in flight might, briefly).
        #expect(eventually { released == nil })
        #expect(swiftFlowSubscriptions(of: store) == 2)
        // The next change notices it is gone and forgets it.
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        try drainListeners(of: store)
        #expect(eventually { swiftFlowSubscriptions(of: store) == 1 })
        #expect(seen.values == [0, 1, 1])
        #expect(keeper.counters.values.suffix(2) == [2, 2])
        store.unsubscribe(keeper)
        #expect(swiftFlowSubscriptions(of: store) == 0)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriberThatUnsubscribesInDeinit_doesNotDeadlock() throws {
        let store = makeStore()
        for _ in 0..<50 {
            let subscriber = SelfRemovingSubscriber(store: store)
            store.subscribe(subscriber)
            store.dispatch(AddAction(amount: 1))
        }
        try drainListeners(of: store)
        #expect(eventually { swiftFlowSubscriptions(of: store) == 0 })
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func registry_goesAwayWithTheStore() throws {
        weak var weakRegistry: SubscriberRegistry?
        weak var weakStore: LegacyStore?
        let subscriber = CounterSubscriber()
        do {
            let store = makeStore()
            store.subscribe(subscriber)
            try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
            weakRegistry = SubscriberRegistryDirectory.shared.existingRegistry(for: store)
            weakStore = store
            #expect(weakRegistry != nil)
        }
        #expect(eventually { weakStore == nil && weakRegistry == nil })
        #expect(eventually { subscriber.counters.values == [0, 1] })
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriberOfAnotherStateType_isSkipped() throws {
        let store = makeStore()
        let foreign = ForeignSubscriber()
        store.subscribe(foreign)
        try store.dispatch(AddAction(amount: 1)).wait(timeout: .seconds(10))
        try drainListeners(of: store)
        #expect(foreign.calls.values.isEmpty)
        store.unsubscribe(foreign)
    }

    @available(*, deprecated, message: "Exercises the deprecated Swift Flow API")
    @Test func subscriberOfAStoreNotReadyYet_getsItsFirstStateWithTheFirstChange() throws {
        let gate = DispatchSemaphore(value: 0)
        let store = LegacyStore(
            interceptors: [],
            stateInitializer: {
                _ = gate.wait(timeout: .now() + 10)
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
        #expect(subscriber.counters.values.isEmpty)
        // No state to call an action creator with: not called, and the promise says why.
        let creatorCalls = Recorder<Int>()
        let promise = store.dispatch { _, _ in
            creatorCalls.append(1)
            return AddAction(amount: 1)
        }
        #expect(throws: SwiftFlowError.storeNotReady) { try promise?.wait(timeout: .seconds(10)) }
        #expect(creatorCalls.values.isEmpty)
        // Items dispatched meanwhile wait for the store; the subscriber gets the state before the first
        // change, then the change.
        store.dispatch(AddAction(amount: 1))
        gate.signal()
        try store.dispatch(Barrier()).wait(timeout: .seconds(10))
        #expect(eventually { subscriber.counters.values.count >= 3 })
        #expect(subscriber.counters.values == [7, 8, 8])
        store.unsubscribe(subscriber)
    }
}
