import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// The short type name of an item, for readable expectations.
private func shortName(_ item: any Dispatchable) -> String {
    String(describing: type(of: item))
}

/// A value interceptor that records `start label` when it starts for a store and `label:TypeName`
/// for each item, which it passes on.
private struct Logging: Interceptor {
    let label: String
    let events: LockedList<String>

    init(_ label: String, into events: LockedList<String>) {
        self.label = label
        self.events = events
    }

    mutating func start(in context: any AnySideEffectContext) {
        events.append("start \(label)")
    }

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        events.append("\(label):\(shortName(item))")
        try next(item)
    }
}

/// The closure form of ``Logging``: records `start label` when its outer closure is called with
/// the store's context, and `label:TypeName` for each item.
private func loggingClosure(_ label: String, into events: LockedList<String>) -> StoreInterceptor {
    { _ in
        events.append("start \(label)")
        return { next in
            { item in
                events.append("\(label):\(shortName(item))")
                try next(item)
            }
        }
    }
}

/// A value interceptor that replaces `Increment(amount: from)` with `Increment(amount: to)`.
private struct ReplacingIncrement: Interceptor {
    let from: Int
    let to: Int

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if let increment = item as? Increment, increment.amount == from {
            try next(Increment(amount: to))
        } else {
            try next(item)
        }
    }
}

/// A value interceptor that keeps per-store state made in `start(in:)`: a counter of the items
/// it saw (appended to `counters` when made, so the test can read each store's) and the identity
/// of its store's dependencies (appended to `dependencies` for each item).
private struct PerStoreState: Interceptor {
    let starts: LockedValue<Int>
    let counters: LockedList<LockedValue<Int>>
    let dependencies: LockedList<ObjectIdentifier>
    private var seen: LockedValue<Int>?
    private var storeDependencies: ObjectIdentifier?

    init(starts: LockedValue<Int>, counters: LockedList<LockedValue<Int>>, dependencies: LockedList<ObjectIdentifier>) {
        self.starts = starts
        self.counters = counters
        self.dependencies = dependencies
    }

    mutating func start(in context: any AnySideEffectContext) {
        starts.increment()
        let counter = LockedValue(0)
        counters.append(counter)
        seen = counter
        storeDependencies = ObjectIdentifier(context.anyDependencies)
    }

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        seen?.increment()
        if let storeDependencies { dependencies.append(storeDependencies) }
        try next(item)
    }
}

/// A value interceptor that keeps the `next` of `Increment(amount: 7)` and `IncrementLater` and
/// calls it from another thread once `passOn` opens; passes everything else on at once.
private struct PassingOnLater: Interceptor {
    let passOn: Latch

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        guard (item as? Increment)?.amount == 7 || item is IncrementLater else { return try next(item) }
        let passOn = passOn
        DispatchQueue.global().async {
            _ = passOn.wait(timeout: holdTimeout)
            try? next(item)
        }
    }
}

/// An object that only a value interceptor holds; it records the items the interceptor sees.
private final class ValueSpy: Sendable {
    let seen: LockedList<String>

    init(recordingInto seen: LockedList<String>) {
        self.seen = seen
    }
}

/// A weak reference to a spy, so the test does not keep it alive.
private final class WeakValueSpy: Sendable {
    weak let spy: ValueSpy?

    init(_ spy: ValueSpy) {
        self.spy = spy
    }
}

/// A value interceptor whose only stored property is the spy it reports to.
private struct Spying: Interceptor {
    let spy: ValueSpy

    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        spy.seen.append(shortName(item))
        try next(item)
    }
}

/// A store with `interceptors` and `initial` as its first state.
private func makeStore(
    interceptors: Interceptors,
    initial: CounterState = CounterState(),
    configuration: TestStore.Configuration = testConfiguration()
) -> TestStore {
    TestStore(interceptors: interceptors, stateInitializer: { initial }, configuration: configuration)
}

/// The value form's own behaviour: what the ``InterceptorsBuilder`` block composes, when each
/// interceptor starts, what each store gets, and how long the store keeps the values.
@Suite struct InterceptorsBuilderTests {
    /// Which branch a `switch` in a builder block takes.
    enum Branch: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case value, closure, nestedEmpty
        var testDescription: String { rawValue }
    }

    // MARK: - The block

    @Test(arguments: [true, false]) func builderIf_includesTheInterceptorOnlyWhenTaken(taken: Bool) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: Interceptors {
            Logging("always", into: events)
            if taken {
                Logging("optional", into: events)
            }
        })
        try await store.dispatch(RecordApplied(label: "handled", events: events)).settled()
        let expected = taken
            ? ["start always", "start optional", "always:RecordApplied", "optional:RecordApplied", "handled"]
            : ["start always", "always:RecordApplied", "handled"]
        #expect(events.all == expected)
    }

    @Test(arguments: [true, false]) func builderIf_asTheWholeBlock_itemsPassWhetherTakenOrNot(taken: Bool) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: Interceptors {
            if taken {
                Logging("optional", into: events)
            }
        })
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(try await store.dispatch(Constant(value: 3)).settled() == 3)
        #expect(store.state.applied == [2])
        #expect(events.all == (taken ? ["start optional", "optional:Increment", "optional:Constant"] : []))
    }

    @Test(arguments: [true, false]) func builderIfElse_runsTheTakenBranchOnly_valueOrClosure(first: Bool) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: Interceptors {
            if first {
                Logging("first", into: events)
            } else {
                loggingClosure("second", into: events)
            }
            Logging("after", into: events)
        })
        try await store.dispatch(Increment()).settled()
        let branch = first ? "first" : "second"
        #expect(events.all == ["start \(branch)", "start after", "\(branch):Increment", "after:Increment"])
        #expect(store.state.counter == 1)
    }

    @Test(arguments: Branch.allCases) func builderSwitch_runsTheTakenCaseOnly(branch: Branch) async throws {
        let events = LockedList<String>()
        let store = makeStore(interceptors: Interceptors {
            switch branch {
            case .value:
                Logging("value", into: events)
            case .closure:
                loggingClosure("closure", into: events)
            case .nestedEmpty:
                Interceptors {}
            }
        })
        try await store.dispatch(Increment()).settled()
        let expected: [String] = switch branch {
        case .value: ["start value", "value:Increment"]
        case .closure: ["start closure", "closure:Increment"]
        case .nestedEmpty: []
        }
        #expect(events.all == expected)
        #expect(store.state.counter == 1)
    }

    @Test func builderFor_runsEachInterceptorInLoopOrder() async throws {
        let events = LockedList<String>()
        let labels = ["A", "B", "C"]
        let store = makeStore(interceptors: Interceptors {
            for label in labels {
                Logging(label, into: events)
            }
        })
        try await store.dispatch(RecordApplied(label: "handled", events: events)).settled()
        #expect(events.all == [
            "start A", "start B", "start C", "A:RecordApplied", "B:RecordApplied", "C:RecordApplied", "handled",
        ])
    }

    @Test func builderForOverNothing_itemsPass() async throws {
        let events = LockedList<String>()
        let labels: [String] = []
        let store = makeStore(interceptors: Interceptors {
            for label in labels {
                Logging(label, into: events)
            }
        })
        try await store.dispatch(Increment(amount: 4)).settled()
        #expect(store.state.applied == [4])
        #expect(events.all == [])
    }

    @Test func nestedInterceptors_runWhereWritten_startingInOrder() async throws {
        let events = LockedList<String>()
        let inner = Interceptors {
            Logging("inner value", into: events)
            loggingClosure("inner closure", into: events)
        }
        let store = makeStore(interceptors: Interceptors {
            Logging("outer first", into: events)
            inner
            Logging("outer last", into: events)
        })
        try await store.dispatch(Increment()).settled()
        #expect(events.all == [
            "start outer first", "start inner value", "start inner closure", "start outer last",
            "outer first:Increment", "inner value:Increment", "inner closure:Increment", "outer last:Increment",
        ])
    }

    /// A replacement made inside a nested group passes the rest of the group and what follows the
    /// group, not what came before it.
    @Test func nestedInterceptors_replacementInside_passesTheRemainingInterceptorsOnly() async throws {
        let events = LockedList<String>()
        let amounts = LockedList<String>()
        let amount = { (label: String) -> StoreInterceptor in
            { _ in
                { next in
                    { item in
                        amounts.append("\(label):\((item as? Increment)?.amount ?? -1)")
                        try next(item)
                    }
                }
            }
        }
        let inner = Interceptors {
            amount("inner before")
            ReplacingIncrement(from: 1, to: 10)
            amount("inner after")
        }
        let store = makeStore(interceptors: Interceptors {
            amount("outer before")
            inner
            amount("outer after")
            Logging("last", into: events)
        })
        try await store.dispatch(Increment(amount: 1)).settled()
        #expect(amounts.all == ["outer before:1", "inner before:1", "inner after:10", "outer after:10"])
        #expect(events.all == ["start last", "last:Increment"])
        #expect(store.state.applied == [10])
    }

    /// `Interceptors {}` composes no interceptor: the store runs no chain, and every item is handled
    /// (or rejected) as in a store without interceptors.
    @Test func emptyBlock_itemsPassAsWithoutInterceptors() async throws {
        let interceptors = Interceptors {}
        #expect(interceptors.isEmpty)
        #expect(Interceptors([]).isEmpty)
        let store = makeStore(interceptors: interceptors)
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(store.state.applied == [2])
        #expect(try await store.dispatch(Constant(value: 5)).settled() == 5)
        try await store.dispatch(IncrementLater(amount: 3)).settled()
        #expect(try await store.dispatch(AsyncAdd(amount: 1)).settled() == 6)
        #expect(store.state.applied == [2, 3, 1])
        #expect(try await rejection(of: store.dispatch(Fails(code: 8))) as? TestError == TestError(code: 8))
        let unsupported = try await rejection(of: store.anyDispatch(NotHandleable()))
        #expect(unsupported?.katana == .unsupportedDispatchable(item: "KatanaTests.NotHandleable"))
    }

    // MARK: - Starting

    /// Each value's `start(in:)` and each closure's outer closure run once per store, in the order
    /// written (nested groups at their place), when the store starts and before any item, even
    /// one dispatched before the store was ready.
    @Test func start_runsOncePerStore_inOrderWritten_beforeAnyItem() async throws {
        let events = LockedList<String>()
        let held = HeldExecutor()
        let store = makeStore(
            interceptors: Interceptors {
                Logging("A", into: events)
                loggingClosure("B", into: events)
                Interceptors {
                    Logging("C", into: events)
                    [loggingClosure("D", into: events), loggingClosure("E", into: events)]
                }
                Logging("F", into: events)
            },
            configuration: testConfiguration(stateInitializer: held)
        )
        let early = store.dispatch(Increment())
        #expect(events.all == [])
        held.runHeld()
        try await early.settled()
        try await store.dispatch(Increment()).settled()
        let labels = ["A", "B", "C", "D", "E", "F"]
        #expect(events.all == labels.map { "start \($0)" } + labels.map { "\($0):Increment" } + labels.map { "\($0):Increment" })
    }

    /// One `Interceptors` value given to two stores: each store starts its own copy (every value's
    /// start and every closure's outer closure run once for each store), and what a value keeps
    /// from its start belongs to its store.
    @Test func oneInterceptorsValueForTwoStores_eachStoreStartsItsOwnCopy() async throws {
        let starts = LockedValue(0)
        let closureStarts = LockedValue(0)
        let counters = LockedList<LockedValue<Int>>()
        let dependencies = LockedList<ObjectIdentifier>()
        let countingStarts: StoreInterceptor = { _ in
            closureStarts.increment()
            return { next in next }
        }
        let shared = Interceptors {
            PerStoreState(starts: starts, counters: counters, dependencies: dependencies)
            countingStarts
        }
        let first = makeStore(interceptors: shared)
        let second = makeStore(interceptors: shared)
        #expect(starts.value == 2)
        #expect(closureStarts.value == 2)
        for _ in 1...2 { try await first.dispatch(Increment()).settled() }
        for _ in 1...3 { try await second.dispatch(Increment()).settled() }
        #expect(counters.all.map(\.value) == [2, 3])
        let firstID = ObjectIdentifier(first.dependencies)
        let secondID = ObjectIdentifier(second.dependencies)
        #expect(firstID != secondID)
        #expect(dependencies.all == [firstID, firstID, secondID, secondID, secondID])
        #expect(first.state.counter == 2)
        #expect(second.state.counter == 3)
    }

    /// A value given in Katana's closure form (`storeInterceptor`, in a `[StoreInterceptor]`):
    /// each store starts its own copy, and the value runs where the array puts it.
    @Test func valueAsStoreInterceptor_eachStoreStartsItsOwnCopy_andRunsInArrayOrder() async throws {
        let starts = LockedValue(0)
        let counters = LockedList<LockedValue<Int>>()
        let dependencies = LockedList<ObjectIdentifier>()
        let events = LockedList<String>()
        let closures: [StoreInterceptor] = [
            loggingClosure("a", into: events),
            PerStoreState(starts: starts, counters: counters, dependencies: dependencies).storeInterceptor,
            Logging("b", into: events).storeInterceptor,
        ]
        let first = TestStore(interceptors: closures, stateInitializer: { CounterState() }, configuration: testConfiguration())
        let second = TestStore(interceptors: closures, stateInitializer: { CounterState() }, configuration: testConfiguration())
        #expect(starts.value == 2)
        for _ in 1...2 { try await first.dispatch(Increment()).settled() }
        try await second.dispatch(Increment()).settled()
        #expect(counters.all.map(\.value) == [2, 1])
        #expect(dependencies.all == [
            ObjectIdentifier(first.dependencies), ObjectIdentifier(first.dependencies), ObjectIdentifier(second.dependencies),
        ])
        #expect(events.all == [
            "start a", "start b", "start a", "start b",
            "a:Increment", "b:Increment", "a:Increment", "b:Increment", "a:Increment", "b:Increment",
        ])
        #expect(first.state.counter == 2)
        #expect(second.state.counter == 1)
    }

    // MARK: - next kept and called later

    /// A value interceptor that keeps `next` and calls it later, from another thread: the item is
    /// handled then (its promise settled when the interceptor returned, as for a blocked item).
    @Test func valueInterceptorCallingNextLaterFromAnotherThread_itemIsHandled() async throws {
        let passOn = Latch()
        let store = makeStore(interceptors: Interceptors { PassingOnLater(passOn: passOn) })
        try await store.dispatch(Increment(amount: 7)).settled()
        let sideEffect = try await rejection(of: store.dispatch(IncrementLater(amount: 3)))
        #expect(sideEffect?.katana == .blockedByInterceptor(item: "KatanaTests.IncrementLater"))
        #expect(store.state.counter == 0)
        passOn.open()
        try await store.waitUntil("the counter to reach 10") { store.state.counter == 10 }
        #expect(Set(store.state.applied) == [7, 3])
    }

    // MARK: - Lifetime

    /// The store keeps its value interceptors (and what they hold) alive for as long as it lives,
    /// and lets them go once it is released.
    @Test func valueInterceptorObject_isKeptWhileStoreLives_andFreedWhenStoreIsReleased() async throws {
        let seen = LockedList<String>()
        let spyReference: WeakValueSpy
        do {
            let store: TestStore
            do {
                let spy = ValueSpy(recordingInto: seen)
                spyReference = WeakValueSpy(spy)
                store = makeStore(interceptors: Interceptors { Spying(spy: spy) })
            }
            // Only the store holds the spy now.
            #expect(spyReference.spy != nil)
            try await store.dispatch(Increment(amount: 2)).settled()
            try await store.dispatch(Constant(value: 1)).settled()
            #expect(seen.all == ["Increment", "Constant"])
            #expect(spyReference.spy != nil)
            #expect(store.state.counter == 2)
        }
        // The store may let go of its interceptors asynchronously.
        try await poll("the interceptor to be released") { spyReference.spy == nil }
    }
}
