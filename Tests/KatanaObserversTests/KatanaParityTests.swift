import Foundation
import Katana
import KatanaObservers
import Testing

/// Katana's form: `ObserverInterceptor.observe(_:notificationCenter:)` with `ObserverType` cases
/// and the four observer protocols.
@Suite struct KatanaParityTests {
    private typealias Observe = ObserverInterceptor.ObserverType

    @Test func onStart_dispatchesEachTypeOnceBeforeLaterItems_andSkipsTypesWhoseInitialiserReturnsNil() throws {
        let store = makeStore([
            ObserverInterceptor.observe([.onStart([StartFirst.self, DeclinesAtStart.self, StartSecond.self])], notificationCenter: NotificationCenter()),
        ])
        try store.appendAndWait("user")
        try store.appendAndWait("user again")

        #expect(store.state.log == ["start first", "start second", "user", "user again"])
    }

    @Test func onStateChange_dispatchesWhenTheObserverAccepts_withTheStatesBeforeAndAfter() throws {
        let countChanged: ObserverInterceptor.ObserverType.StateChangeObserver = { old, new in
            (old as? ObsState)?.count != (new as? ObsState)?.count
        }
        let store = makeStore([
            ObserverInterceptor.observe([.onStateChange(countChanged, [CountChanged.self])], notificationCenter: NotificationCenter()),
        ])
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        try store.appendAndWait("unrelated entry")
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        #expect(store.waitForEntry("count 1->2"))

        #expect(store.entries("count") == ["count 0->1", "count 1->2"])
    }

    @Test func onStateChange_dispatchesEveryListedType_skippingThoseWhoseInitialiserReturnsNil() throws {
        let countChanged: ObserverInterceptor.ObserverType.StateChangeObserver = { old, new in
            (old as? ObsState)?.count != (new as? ObsState)?.count
        }
        let store = makeStore([
            ObserverInterceptor.observe([.onStateChange(countChanged, [EvenCountOnly.self, CountChanged.self])], notificationCenter: NotificationCenter()),
        ])
        for _ in 1...3 {
            try store.dispatch(Bump()).wait(timeout: testTimeout)
        }
        #expect(store.waitForEntry("count 2->3"))

        #expect(store.entries("count") == ["count 0->1", "count 1->2", "count 2->3"])
        #expect(store.entries("even") == ["even 2"])
    }

    @Test func typedStateChange_firesOnlyWhenItsTypedClosureAccepts_andNotForTheSameValueOrOtherFields() throws {
        let store = makeStore([
            ObserverInterceptor.observe(
                [.onStateChange(Observe.typedStateChange { (old: ObsState, new: ObsState) in old.level != new.level }, [LevelChanged.self])],
                notificationCenter: NotificationCenter()
            ),
        ])
        try store.dispatch(SetLevel("debug")).wait(timeout: testTimeout)
        try store.dispatch(SetLevel("debug")).wait(timeout: testTimeout)
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        try store.dispatch(SetLevel("warn")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("level debug->warn"))

        #expect(store.entries("level") == ["level info->debug", "level debug->warn"])
    }

    @Test func typedStateChange_returnsFalseForStatesOfAnotherType_andTheClosureResultOtherwise() {
        let accepts = Observe.typedStateChange { (_: ForeignState, new: ForeignState) in new.value == 1 }

        #expect(accepts(ObsState(), ObsState()) == false)
        #expect(accepts(ForeignState(value: 0), ForeignState(value: 1)) == true)
        #expect(accepts(ForeignState(value: 1), ForeignState(value: 0)) == false)
    }

    @Test func onStateChange_ignoresSideEffects_butFiresForTheUpdaterASideEffectDispatches() throws {
        let store = makeStore([
            ObserverInterceptor.observe([.onStateChange({ _, _ in true }, [SeenAfter.self])], notificationCenter: NotificationCenter()),
        ])
        try store.dispatch(DoNothing()).wait(timeout: testTimeout)
        try store.dispatch(AppendViaSideEffect(entry: "from effect")).wait(timeout: testTimeout)
        // Sentinel: its own state change fires the rule after anything the side effects could have fired.
        try store.appendAndWait("sentinel")
        #expect(store.waitForEntry("seen after sentinel"))

        #expect(store.entries("seen after") == ["seen after from effect", "seen after sentinel"])
    }

    @Test func onDispatch_passesTheHandledItemAndTheStatesBeforeAndAfterIt() throws {
        let store = makeStore([
            ObserverInterceptor.observe([.onDispatch(Bump.self, [DispatchSeen.self])], notificationCenter: NotificationCenter()),
        ])
        try store.dispatch(Bump(tag: "a")).wait(timeout: testTimeout)
        try store.dispatch(Bump(tag: "b")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("dispatched Bump b 1->2"))

        #expect(store.entries("dispatched") == ["dispatched Bump a 0->1", "dispatched Bump b 1->2"])
    }

    @Test func onDispatch_matchesTheExactTypeOnly_notOtherTypesNorSubclasses() throws {
        let store = makeStore([
            ObserverInterceptor.observe(
                [
                    .onDispatch(ClassBump.self, [DispatchSeen.self]),
                    .onDispatch(Bump.self, [DispatchSeen.self]),
                ],
                notificationCenter: NotificationCenter()
            ),
        ])
        try store.dispatch(SubclassBump()).wait(timeout: testTimeout)
        try store.dispatch(OtherBump()).wait(timeout: testTimeout)
        try store.dispatch(ClassBump()).wait(timeout: testTimeout)
        // Sentinel: handled after the items above, so its rule runs after theirs would have.
        try store.dispatch(Bump(tag: "sentinel")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("dispatched Bump sentinel 3->4"))

        #expect(store.entries("dispatched") == ["dispatched ClassBump 2->3", "dispatched Bump sentinel 3->4"])
    }

    @Test func onDispatch_firesForSideEffectsToo_andSkipsTypesWhoseInitialiserReturnsNil() throws {
        let store = makeStore([
            ObserverInterceptor.observe(
                [
                    .onDispatch(DoNothing.self, [DispatchSeen.self]),
                    .onDispatch(Bump.self, [DispatchSeen.self]),
                ],
                notificationCenter: NotificationCenter()
            ),
        ])
        try store.dispatch(DoNothing()).wait(timeout: testTimeout)
        try store.dispatch(Bump(tag: "skip")).wait(timeout: testTimeout)
        try store.dispatch(Bump(tag: "sentinel")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("dispatched Bump sentinel 1->2"))

        #expect(store.entries("dispatched") == ["dispatched DoNothing 0->0", "dispatched Bump sentinel 1->2"])
    }

    @Test func producedItems_areDispatchedAfterTheTriggerWasHandled_andPassEveryInterceptor() throws {
        let recorder = RecordingInterceptor()
        let store = makeStore([
            recorder.interceptor,
            ObserverInterceptor.observe([.onDispatch(Bump.self, [DispatchSeen.self, AlsoDispatchSeen.self])], notificationCenter: NotificationCenter()),
        ])
        try store.dispatch(Bump(tag: "trigger")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("also dispatched Bump"))

        // The item was built from the state after the trigger: the trigger had been handled.
        #expect(store.state.log == ["dispatched Bump trigger 0->1", "also dispatched Bump"])
        // The produced items went through the whole chain, including the interceptor listed
        // before the observer, after the trigger.
        #expect(recorder.seen.get() == ["Bump", "DispatchSeen", "AlsoDispatchSeen"])
    }

    @Test func onStartItems_passEveryInterceptor_beforeItemsDispatchedLater() throws {
        let recorder = RecordingInterceptor()
        let store = makeStore([
            recorder.interceptor,
            ObserverInterceptor.observe([.onStart([StartFirst.self, StartSecond.self])], notificationCenter: NotificationCenter()),
        ])
        try store.appendAndWait("user")

        #expect(recorder.seen.get() == ["StartFirst", "StartSecond", "Append(user)"])
    }

    @Test func severalRulesOfEveryKind_inOneInterceptor_allFire() throws {
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
        try store.dispatch(Bump(tag: "x")).wait(timeout: testTimeout)
        try store.dispatch(Bump(tag: "y")).wait(timeout: testTimeout)
        center.post(name: .obsPing, object: nil, userInfo: ["value": "v"])
        #expect(store.waitForEntry("note obs.ping v"))
        #expect(eventually { store.state.log.count == 10 })

        #expect(Set(store.state.log) == [
            "start first", "start second",
            "count 0->1", "count 1->2", "even 2",
            "dispatched Bump x 0->1", "dispatched Bump y 1->2", "also dispatched Bump",
            "note obs.ping v",
        ])
        #expect(store.entries("also dispatched").count == 2)
    }

    @Test func onNotification_dispatchesForTheObservedName_skippingNilInitialisersAndOtherNames() throws {
        let center = NotificationCenter()
        let store = makeStore([
            ObserverInterceptor.observe([.onNotification(.obsPing, [NoteSeen.self])], notificationCenter: center),
        ])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "a"])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "skipped", "skip": true])
        center.post(name: .obsPong, object: nil, userInfo: ["value": "other name"])
        NotificationCenter.default.post(name: .obsPing, object: nil, userInfo: ["value": "default center"])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "b"])
        #expect(store.waitForEntry("note obs.ping b"))
        try store.appendAndWait("sentinel")

        #expect(store.entries("note") == ["note obs.ping a", "note obs.ping b"])
    }

    @Test func notificationObservers_areRemovedWhenTheStoreIsReleased_postingThenDispatchesNothing() throws {
        let center = NotificationCenter()
        let probe = Shared<[String]>([])
        weak var weakStore: ObsStore?
        weak var weakDependencies: ObsDependencies?
        do {
            let store = makeStore([
                ObserverInterceptor.observe([.onNotification(.obsPing, [NoteProbe.self])], notificationCenter: center),
            ])
            weakStore = store
            weakDependencies = store.dependencies
            center.post(name: .obsPing, object: probe)
            #expect(store.waitForEntry("probe"))
            #expect(probe.get() == ["probe ran"])
        }
        #expect(eventually { weakStore == nil })
        // The interceptors (and the observer's runtime with its notification tokens) are released
        // asynchronously on the store's queue; they are the last holders of the store's context.
        #expect(eventually { weakDependencies == nil })

        center.post(name: .obsPing, object: probe)
        center.post(name: .obsPing, object: probe)

        #expect(probe.get() == ["probe ran"])
    }
}
