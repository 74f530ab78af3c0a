import Testing
@testable import Katana
import KatanaTestSupport

/// Dispatches `count` ``AwaitGate`` side effects labelled "`name` <index>", with `id`, waiting at
/// `gate` and recording into `events`.
private func dispatch(
    _ count: Int, _ name: String, id: SideEffectID, latestWins: Bool = false,
    to store: TestStore, at gate: AsyncGate, recordingInto events: EventLog
) -> [Promise<String>] {
    (0..<count).map { index in
        store.dispatch(AwaitGate(label: "\(name) \(index)", gate: gate, events: events, id: id, latestWins: latestWins))
    }
}

/// Cancelling async side effects by their id, and "latest wins".
@Suite struct CancelByIDTests {
    @Test func cancelSideEffects_with100Running_cancelsEachWithThatID_andLeavesTheOthers() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let searches = dispatch(100, "search", id: "search", to: store, at: gate, recordingInto: events)
        let refreshes = dispatch(10, "refresh", id: "refresh", to: store, at: gate, recordingInto: events)
        try await gate.waitForWaiters(110)

        #expect(store.cancelSideEffects(id: "search") == 100)
        for (index, search) in searches.enumerated() {
            #expect(try await rejection(of: search)?.katana == .cancelled(item: "KatanaTests.AwaitGate"), "search \(index)")
        }
        try await gate.waitForWaiters(10)
        // Nothing left with that id; an unknown id finds nothing either.
        #expect(store.cancelSideEffects(id: "search") == 0)
        #expect(store.cancelSideEffects(id: SideEffectID(42)) == 0)

        gate.open()
        for (index, refresh) in refreshes.enumerated() {
            #expect(try await refresh.value == "refresh \(index)")
        }
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
        let cancelledSearches = events.all.filter { $0.hasPrefix("search") && $0.hasSuffix("cancelled (Task.isCancelled: true)") }
        #expect(cancelledSearches.count == 100)
    }

    @Test func cancelSideEffects_reachesThoseStillWaitingInTheInbox_butNotThoseDispatchedAfter() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        gate.open()
        let events = EventLog()
        let hold = try await store.holdUpdaterQueue()
        let waiting = dispatch(3, "waiting", id: "search", to: store, at: gate, recordingInto: events)
        #expect(store.cancelSideEffects(id: "search") == 3)
        let after = store.dispatch(AwaitGate(label: "after", gate: gate, events: events, id: "search"))
        hold.release()
        for promise in waiting {
            #expect(try await rejection(of: promise)?.katana == .cancelled(item: "KatanaTests.AwaitGate"))
        }
        #expect(try await after.value == "after")
        #expect(events.all == ["after started", "after finished"])
    }

    @Test func latestWins_with1000RapidDispatches_exactlyOneSurvives_andItIsTheLast() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let count = 1_000
        let searches = dispatch(count, "query", id: "search", latestWins: true, to: store, at: gate, recordingInto: events)
        // Every one but the last is cancelled, whether it had started or not.
        for (index, search) in searches.dropLast().enumerated() {
            #expect(try await rejection(of: search)?.katana == .cancelled(item: "KatanaTests.AwaitGate"), "query \(index)")
        }
        // The gate opens once every cancelled one has ended: cancellation is cooperative, and one
        // whose body was still on its way to the gate when it was cancelled could otherwise pass
        // an open gate before the store had its task to cancel (docs/Lifetimes.md, "Cancelling work").
        try await store.waitUntil("only the last search left") { store.activeSideEffectCount == 1 }
        try await gate.waitForWaiters(1)
        #expect(store.activeSideEffectCount == 1)
        gate.open()
        #expect(try await searches[count - 1].value == "query \(count - 1)")
        try await store.waitUntil("the side effects to end") { store.sideEffectsAreIdle }
        #expect(events.all.filter { $0.hasSuffix("finished") } == ["query \(count - 1) finished"])
    }

    @Test func sameIDWithoutLatestWins_letsEveryOneRun() async throws {
        let store = makeStore()
        let gate = AsyncGate()
        let events = EventLog()
        let loads = dispatch(3, "load", id: "load", to: store, at: gate, recordingInto: events)
        try await gate.waitForWaiters(3)
        gate.open()
        for (index, load) in loads.enumerated() {
            #expect(try await load.value == "load \(index)")
        }
    }

    @Test func anIDCanBeAnyHashableSendableValue() {
        enum Feature: Hashable, Sendable { case search, refresh }
        #expect(SideEffectID(Feature.search) == SideEffectID(Feature.search))
        #expect(SideEffectID(Feature.search) != SideEffectID(Feature.refresh))
        #expect(SideEffectID("search") == "search")
        #expect(SideEffectID(1) != "1")
        #expect(SideEffectID("search").description == "search")
        #expect(Set([SideEffectID("a"), "a", "b"]).count == 2)
    }
}
