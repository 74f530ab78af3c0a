import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// Katana's form: `ObserverInterceptor.observe(_:notificationCenter:)` with `ObserverType` cases
/// and the four observer protocols.
@Suite struct KatanaParityTests {
    private typealias Observe = ObserverInterceptor.ObserverType

    @Test func onStart_dispatchesEachTypeOnceBeforeLaterItems_andSkipsTypesWhoseInitialiserReturnsNil() async throws {
        let store = makeStore([
            ObserverInterceptor.observe([.onStart([StartFirst.self, DeclinesAtStart.self, StartSecond.self])], notificationCenter: NotificationCenter()),
        ])
        try await store.appendAndWait("user")
        try await store.appendAndWait("user again")

        #expect(store.state.log == ["start first", "start second", "user", "user again"])
    }

    @Test func onStateChange_dispatchesWhenTheObserverAccepts_withTheStatesBeforeAndAfter() async throws {
        let countChanged: ObserverInterceptor.ObserverType.StateChangeObserver = { old, new in
            (old as? ObsState)?.count != (new as? ObsState)?.count
        }
        let store = makeStore([
            ObserverInterceptor.observe([.onStateChange(countChanged, [CountChanged.self])], notificationCenter: NotificationCenter()),
        ])
        try await store.bumpTwiceAroundOtherChanges()

        #expect(store.entries("count") == ["count 0->1", "count 1->2"])
    }

    @Test func onStateChange_dispatchesEveryListedType_skippingThoseWhoseInitialiserReturnsNil() async throws {
        let countChanged: ObserverInterceptor.ObserverType.StateChangeObserver = { old, new in
            (old as? ObsState)?.count != (new as? ObsState)?.count
        }
        let store = makeStore([
            ObserverInterceptor.observe([.onStateChange(countChanged, [EvenCountOnly.self, CountChanged.self])], notificationCenter: NotificationCenter()),
        ])
        for _ in 1...3 {
            try await store.dispatch(Bump()).settled()
        }
        try await store.waitForEntry("count 2->3")

        #expect(store.entries("count") == ["count 0->1", "count 1->2", "count 2->3"])
        #expect(store.entries("even") == ["even 2"])
    }

    @Test func typedStateChange_firesOnlyWhenItsTypedClosureAccepts_andNotForTheSameValueOrOtherFields() async throws {
        let store = makeStore([
            ObserverInterceptor.observe(
                [.onStateChange(Observe.typedStateChange { (old: ObsState, new: ObsState) in old.level != new.level }, [LevelChanged.self])],
                notificationCenter: NotificationCenter()
            ),
        ])
        try await store.dispatch(SetLevel("debug")).settled()
        try await store.dispatch(SetLevel("debug")).settled()
        try await store.dispatch(Bump()).settled()
        try await store.dispatch(SetLevel("warn")).settled()
        try await store.waitForEntry("level debug->warn")

        #expect(store.entries("level") == ["level info->debug", "level debug->warn"])
    }

    @Test func typedStateChange_returnsFalseForStatesOfAnotherType_andTheClosureResultOtherwise() {
        let accepts = Observe.typedStateChange { (_: ForeignState, new: ForeignState) in new.value == 1 }

        #expect(accepts(ObsState(), ObsState()) == false)
        #expect(accepts(ForeignState(value: 0), ForeignState(value: 1)) == true)
        #expect(accepts(ForeignState(value: 1), ForeignState(value: 0)) == false)
    }

    @Test func onStateChange_ignoresSideEffects_butFiresForTheUpdaterASideEffectDispatches() async throws {
        let store = makeStore([
            ObserverInterceptor.observe([.onStateChange({ _, _ in true }, [SeenAfter.self])], notificationCenter: NotificationCenter()),
        ])
        try await store.dispatch(DoNothing()).settled()
        try await store.dispatch(AppendViaSideEffect(entry: "from effect")).settled()
        // Sentinel: its own state change fires the rule after anything the side effects could have fired.
        try await store.appendAndWait("sentinel")
        try await store.waitForEntry("seen after sentinel")

        #expect(store.entries("seen after") == ["seen after from effect", "seen after sentinel"])
    }

    /// A store whose rules dispatch `DispatchSeen` for each item of one of `types`.
    private func storeSeeingDispatches(of types: [any Dispatchable.Type]) -> ObsStore {
        makeStore([
            ObserverInterceptor.observe(types.map { .onDispatch($0, [DispatchSeen.self]) }, notificationCenter: NotificationCenter()),
        ])
    }

    /// Dispatches `items` one after another, each once the one before it is handled; then waits
    /// for the log to show `entry`, which the last item's rule writes (a sentinel: its rule runs
    /// after those of the items before it would have).
    private func dispatch(_ items: [any Dispatchable], to store: ObsStore, thenWaitFor entry: String) async throws {
        for item in items {
            _ = try await store.anyDispatch(item).settled()
        }
        try await store.waitForEntry(entry)
    }

    @Test func onDispatch_passesTheHandledItemAndTheStatesBeforeAndAfterIt() async throws {
        let store = storeSeeingDispatches(of: [Bump.self])
        try await dispatch([Bump(tag: "a"), Bump(tag: "b")], to: store, thenWaitFor: "dispatched Bump b 1->2")

        #expect(store.entries("dispatched") == ["dispatched Bump a 0->1", "dispatched Bump b 1->2"])
    }

    @Test func onDispatch_matchesTheExactTypeOnly_notOtherTypesNorSubclasses() async throws {
        let store = storeSeeingDispatches(of: [ClassBump.self, Bump.self])
        let items: [any Dispatchable] = [SubclassBump(), OtherBump(), ClassBump(), Bump(tag: "sentinel")]
        try await dispatch(items, to: store, thenWaitFor: "dispatched Bump sentinel 3->4")

        #expect(store.entries("dispatched") == ["dispatched ClassBump 2->3", "dispatched Bump sentinel 3->4"])
    }

    @Test func onDispatch_firesForSideEffectsToo_andSkipsTypesWhoseInitialiserReturnsNil() async throws {
        let store = storeSeeingDispatches(of: [DoNothing.self, Bump.self])
        let items: [any Dispatchable] = [DoNothing(), Bump(tag: "skip"), Bump(tag: "sentinel")]
        try await dispatch(items, to: store, thenWaitFor: "dispatched Bump sentinel 1->2")

        #expect(store.entries("dispatched") == ["dispatched DoNothing 0->0", "dispatched Bump sentinel 1->2"])
    }

    @Test func producedItems_areDispatchedAfterTheTriggerWasHandled_andPassEveryInterceptor() async throws {
        let recorder = RecordingInterceptor()
        let store = makeStore([
            recorder.interceptor,
            ObserverInterceptor.observe([.onDispatch(Bump.self, [DispatchSeen.self, AlsoDispatchSeen.self])], notificationCenter: NotificationCenter()),
        ])
        try await store.dispatch(Bump(tag: "trigger")).settled()
        try await store.waitForEntry("also dispatched Bump")

        // The item was built from the state after the trigger: the trigger had been handled.
        #expect(store.state.log == ["dispatched Bump trigger 0->1", "also dispatched Bump"])
        // The produced items went through the whole chain, including the interceptor listed
        // before the observer, after the trigger.
        #expect(recorder.seen.all == ["Bump", "DispatchSeen", "AlsoDispatchSeen"])
    }

    @Test func onStartItems_passEveryInterceptor_beforeItemsDispatchedLater() async throws {
        let recorder = RecordingInterceptor()
        let store = makeStore([
            recorder.interceptor,
            ObserverInterceptor.observe([.onStart([StartFirst.self, StartSecond.self])], notificationCenter: NotificationCenter()),
        ])
        try await store.appendAndWait("user")

        #expect(recorder.seen.all == ["StartFirst", "StartSecond", "Append(user)"])
    }

    @Test func severalRulesOfEveryKind_inOneInterceptor_allFire() async throws {
        let center = NotificationCenter()
        let store = makeStore([
            ObserverInterceptor.observe(
                [
                    .onStart([StartFirst.self, StartSecond.self]),
                    .onStateChange(Observe.typedStateChange { (old: ObsState, new: ObsState) in old.count != new.count }, [CountChanged.self, EvenCountOnly.self]),
                    .onDispatch(Bump.self, [DispatchSeen.self, AlsoDispatchSeen.self]),
                    .onNotification(.obsPing, [NoteSeen.self]),
                ],
                notificationCenter: center
            ),
        ])
        try await store.dispatch(Bump(tag: "x")).settled()
        try await store.dispatch(Bump(tag: "y")).settled()
        center.post(name: .obsPing, object: nil, userInfo: ["value": "v"])
        try await store.waitForEntry("note obs.ping v")
        try await store.waitUntil("ten log entries") { store.state.log.count == 10 }

        #expect(Set(store.state.log) == [
            "start first", "start second",
            "count 0->1", "count 1->2", "even 2",
            "dispatched Bump x 0->1", "dispatched Bump y 1->2", "also dispatched Bump",
            "note obs.ping v",
        ])
        #expect(store.entries("also dispatched").count == 2)
    }

    @Test func onNotification_dispatchesForTheObservedName_skippingNilInitialisersAndOtherNames() async throws {
        let center = NotificationCenter()
        let store = makeStore([
            ObserverInterceptor.observe([.onNotification(.obsPing, [NoteSeen.self])], notificationCenter: center),
        ])
        center.post(.obsPing, values: ["a"])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "skipped", "skip": true])
        center.post(.obsPong, values: ["other name"])
        NotificationCenter.default.post(.obsPing, values: ["default center"])
        center.post(.obsPing, values: ["b"])
        try await store.waitForEntryThenSentinel("note obs.ping b")

        #expect(store.entries("note") == ["note obs.ping a", "note obs.ping b"])
    }

    @Test func notificationObservers_areRemovedWhenTheStoreIsReleased_postingThenDispatchesNothing() async throws {
        let center = NotificationCenter()
        let probe = LockedList<String>()
        weak var weakStore: ObsStore?
        weak var weakDependencies: ObsDependencies?
        do {
            let store = makeStore([
                ObserverInterceptor.observe([.onNotification(.obsPing, [NoteProbe.self])], notificationCenter: center),
            ])
            weakStore = store
            weakDependencies = store.dependencies
            center.post(name: .obsPing, object: probe)
            try await store.waitForEntry("probe")
            #expect(probe.all == ["probe ran"])
        }
        // Nothing signals a release: the weak references are looked at until they clear.
        try await poll("the store to be released") { weakStore == nil }
        // The interceptors (and the observer's runtime with its notification tokens) are released
        // asynchronously on the store's queue; they are the last holders of the store's context.
        try await poll("the dependencies to be released") { weakDependencies == nil }

        center.post(name: .obsPing, object: probe)
        center.post(name: .obsPing, object: probe)

        #expect(probe.all == ["probe ran"])
    }
}
