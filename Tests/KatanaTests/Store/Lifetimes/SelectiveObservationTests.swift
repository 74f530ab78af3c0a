import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// A state with a field that changes rarely next to one that changes all the time.
struct ObservedState: State, Equatable {
    var ticks = 0
    var phase = "starting"
}

/// Counts a tick.
struct CountTick: StateUpdater {
    func updateState(_ state: inout ObservedState) {
        state.ticks += 1
    }
}

/// Sets the phase (possibly to the value it has).
struct SetPhase: StateUpdater {
    let phase: String
    func updateState(_ state: inout ObservedState) {
        state.phase = phase
    }
}

private typealias ObservedStore = Store<ObservedState, EmptySideEffectDependencyContainer>

private func makeObservedStore() -> ObservedStore {
    ObservedStore(
        interceptors: [],
        stateInitializer: { ObservedState() },
        configuration: .init(stateInitializerAsyncProvider: ImmediateExecutor(), listenersAsyncProvider: DispatchQueue(label: "observed.listeners"))
    )
}

/// The 1,000 updates the tests dispatch: ticks, with the phase set at 250, 500 (twice: the second
/// changes nothing) and 750.
private func dispatchThousandUpdates(to store: ObservedStore) async throws {
    for index in 1...1_000 {
        switch index {
        case 250: store.dispatch(SetPhase(phase: "running"))
        case 500: store.dispatch(SetPhase(phase: "draining"))
        case 501: store.dispatch(SetPhase(phase: "draining"))
        case 750: store.dispatch(SetPhase(phase: "stopped"))
        default: store.dispatch(CountTick())
        }
    }
    try await store.dispatch(CountTick()).value
}

private struct Pair: Equatable, CustomStringConvertible {
    let old: String
    let new: String
    var description: String { "\(old)→\(new)" }
}

private let expectedPhases = [Pair(old: "starting", new: "running"), Pair(old: "running", new: "draining"), Pair(old: "draining", new: "stopped")]

@Suite struct SelectiveObservationTests {
    @Test func aKeyPathSequence_yieldsOnlyWhenTheValueThereChanges() async throws {
        let store = makeObservedStore()
        let phases = store.stateUpdates(of: \.phase)
        let collected = Task { await phases.reduce(into: [Pair]()) { $0.append(Pair(old: $1.old, new: $1.new)) } }
        try await dispatchThousandUpdates(to: store)
        await store.shutdown()
        #expect(try await withTimeout("WHAT") { await collected.value } == expectedPhases)
    }

    @Test func aKeyPathListener_isCalledOnlyWhenTheValueThereChanges() async throws {
        let store = makeObservedStore()
        let calls = LockedList<String>()
        store.addListener(of: \.phase) { old, new in calls.append("\(old)→\(new)") }
        try await dispatchThousandUpdates(to: store)
        // The updater's promise settles after its listeners: every call has been made.
        #expect(calls.all == expectedPhases.map(\.description))
    }

    @Test func aKeyPathThroughAComputedProperty_isReadThroughTheKeyPath() async throws {
        let store = makeObservedStore()
        let lengths = LockedList<String>()
        // `String.count` has no fixed place in the state: the value is read through the key path.
        #expect(MemoryLayout<ObservedState>.offset(of: \ObservedState.phase.count) == nil)
        store.addListener(of: \.phase.count) { old, new in lengths.append("\(old)→\(new)") }
        try await dispatchThousandUpdates(to: store)
        // "starting" → "running" (8 → 7), → "draining" (7 → 8), → "stopped" (8 → 7).
        #expect(lengths.all == ["8→7", "7→8", "8→7"])
    }

    @Test func aKeyPathListener_stopsWhenUnsubscribed() async throws {
        let store = makeObservedStore()
        let calls = LockedValue(0)
        let unsubscribe = store.addListener(of: \.phase) { _, _ in calls.increment() }
        try await store.dispatch(SetPhase(phase: "one")).settled()
        unsubscribe()
        try await store.dispatch(SetPhase(phase: "two")).settled()
        #expect(calls.value == 1)
    }

    @Test func latestOnly_aSlowConsumerSkipsToTheNewestChange_andSeesTheFinalState() async throws {
        let store = makeObservedStore()
        let updates = store.stateUpdates(buffering: .latestOnly)
        for _ in 0..<10_000 {
            store.dispatch(CountTick())
        }
        try await store.dispatch(CountTick()).value
        // Sequences are not waited for by promises: wait until every change has been handed over.
        try await store.waitUntil("every change handed over") { store.engine.delivery.isIdle }
        // The consumer only now reads, until the final state: what it sees is the newest change
        // each time it looks (a single change each), a handful of the 10,001 (more than one only
        // when the hand-over was still catching up under load).
        let seen = try await withTimeout("the consumer to reach the final state") {
            var seen: [Int] = []
            for await change in updates {
                #expect(change.new.ticks == change.old.ticks + 1)
                seen.append(change.new.ticks)
                if change.new.ticks == 10_001 { break }
            }
            return seen
        }
        #expect(seen.last == 10_001)
        #expect(seen.count < 1_000)
        await store.shutdown()
    }

    /// Observes the ticks of a new store with `observe`, dispatches `count` ticks, shuts the store
    /// down, and returns the tick counts the sequence kept.
    private func ticksKept(
        after count: Int, _ observe: (ObservedStore) -> AsyncStream<(old: Int, new: Int)>
    ) async throws -> [Int] {
        let store = makeObservedStore()
        let updates = observe(store)
        for _ in 1..<count {
            store.dispatch(CountTick())
        }
        try await store.dispatch(CountTick()).settled()
        await store.shutdown()
        return await updates.reduce(into: [Int]()) { $0.append($1.new) }
    }

    @Test func newest_keepsAtMostThatManyChanges_droppingTheOldest() async throws {
        #expect(try await ticksKept(after: 101) { $0.stateUpdates(of: \.ticks, buffering: .newest(3)) } == [99, 100, 101])
    }

    @Test func everyChange_isTheDefault_andKeepsEveryChange() async throws {
        #expect(try await ticksKept(after: 101) { $0.stateUpdates(of: \.ticks) } == Array(1...101))
    }

    @Test func newestBelowOne_keepsOneChange() async throws {
        #expect(try await ticksKept(after: 11) { $0.stateUpdates(of: \.ticks, buffering: .newest(0)) } == [11])
    }
}
