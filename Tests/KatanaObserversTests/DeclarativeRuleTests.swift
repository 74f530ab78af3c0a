import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// The declarative rule values, each in its types form (Katana style) and its closure form.
@Suite struct DeclarativeRuleTests {
    private func observe(
        center: NotificationCenter = NotificationCenter(),
        @ObserverRulesBuilder _ rules: () -> [ObserverRule]
    ) -> ObsStore {
        makeStore([ObserverInterceptor.observe(notificationCenter: center, rules)])
    }

    // MARK: OnStart

    @Test func onStart_typesForm_dispatchesEachTypeInOrder_skippingNilInitialisers() async throws {
        let store = observe {
            OnStart(StartFirst.self, DeclinesAtStart.self, StartSecond.self)
        }
        try await store.appendAndWait("user")

        #expect(store.state.log == ["start first", "start second", "user"])
    }

    @Test func onStart_closureForm_dispatchesWhatTheClosureReturns_andNothingForNil() async throws {
        let calls = LockedValue(0)
        let store = observe {
            OnStart {
                calls.withLock { $0 += 1 }
                return nil
            }
            OnStart { Append("closure start") }
        }
        try await store.appendAndWait("user")

        #expect(store.state.log == ["closure start", "user"])
        #expect(calls.value == 1)
    }

    // MARK: OnStateChange

    @Test func onStateChange_whenForm_dispatchesTheTypesWhenTheConditionHolds() async throws {
        let store = observe {
            OnStateChange(when: { (old: ObsState, new: ObsState) in old.count != new.count }, dispatch: CountChanged.self, EvenCountOnly.self)
        }
        try await store.bumpTwiceAroundOtherChanges()
        try await store.waitForEntry("even 2")

        #expect(store.entries("count") == ["count 0->1", "count 1->2"])
        #expect(store.entries("even") == ["even 2"])
    }

    @Test func onStateChange_closureForm_receivesOldAndNewState_andIgnoresSideEffects() async throws {
        let store = observe {
            OnStateChange { (old: ObsState, new: ObsState) -> (any Dispatchable)? in
                let last = new.log.last ?? "nothing"
                guard !last.hasPrefix("changed") else { return nil }
                return Append("changed \(old.log.count)->\(new.log.count) by \(last)")
            }
        }
        // Had the side effect fired the rule, it would have produced "changed 0->0 by nothing".
        try await store.dispatch(DoNothing()).settled()
        try await store.dispatch(AppendViaSideEffect(entry: "from effect")).settled()
        try await store.waitForEntry("changed 0->1 by from effect")
        try await store.dispatch(Bump()).settled()
        // Sentinel: its own change fires the rule after anything earlier could have.
        try await store.appendAndWait("sentinel")
        try await store.waitUntil("the rule to see the sentinel") { store.state.log.last?.hasSuffix("by sentinel") == true }

        // The side effects changed nothing themselves; `Bump` changed the state but left the log's
        // last entry a "changed" one, for which the closure returns nil.
        #expect(store.entries("changed") == ["changed 0->1 by from effect", "changed 2->3 by sentinel"])
    }

    // MARK: OnChange

    @Test func onChange_closureForm_receivesOldAndNewValue_andFiresOnlyWhenTheValueChanges() async throws {
        let store = observe {
            OnChange(of: \ObsState.level) { old, new in Append("level \(old)->\(new)") }
        }
        try await store.dispatch(SetLevel("debug")).settled()
        try await store.dispatch(Bump()).settled()               // another field
        try await store.dispatch(SetLevel("debug")).settled()    // the same value
        try await store.dispatch(DoNothing()).settled()          // a side effect
        try await store.dispatch(SetLevel("warn")).settled()     // sentinel: a real change
        try await store.waitForEntry("level debug->warn")

        #expect(store.entries("level") == ["level info->debug", "level debug->warn"])
    }

    @Test func onChange_closureReturningNil_dispatchesNothing() async throws {
        let store = observe {
            OnChange(of: \ObsState.level) { _, new in new == "quiet" ? nil : Append("level now \(new)") }
        }
        try await store.dispatch(SetLevel("quiet")).settled()
        try await store.dispatch(SetLevel("loud")).settled()
        try await store.waitForEntry("level now loud")

        #expect(store.entries("level") == ["level now loud"])
    }

    @Test func onChange_typesForm_dispatchesWithTheWholeStatesOnlyWhenTheValueChanges() async throws {
        let store = observe {
            OnChange(of: \ObsState.count, dispatch: CountChanged.self, EvenCountOnly.self)
        }
        try await store.bumpTwiceAroundOtherChanges(changingTheLevel: true)
        try await store.waitForEntry("even 2")

        #expect(store.entries("count") == ["count 0->1", "count 1->2"])
        #expect(store.entries("even") == ["even 2"])
    }

    @Test func onChange_ofAnOptionalValue_firesForChangesToAndFromNil_butNotForTheSameValue() async throws {
        let store = observe {
            OnChange(of: \ObsState.nickname) { old, new in Append("nickname \(old ?? "nil")->\(new ?? "nil")") }
        }
        try await store.dispatch(SetNickname("ann")).settled()
        try await store.dispatch(SetNickname("ann")).settled()
        try await store.dispatch(SetNickname(nil)).settled()
        try await store.dispatch(SetNickname("bob")).settled()
        try await store.dispatch(SetNickname("bo")).settled()   // sentinel
        try await store.waitForEntry("nickname bob->bo")

        #expect(store.entries("nickname") == ["nickname nil->ann", "nickname ann->nil", "nickname nil->bob", "nickname bob->bo"])
    }

    // MARK: OnDispatch

    @Test func onDispatch_closureForm_receivesTheTypedItem_forTheExactTypeOnly() async throws {
        let store = observe {
            OnDispatch(Bump.self) { bump in bump.tag == "skip" ? nil : Append("saw bump \(bump.tag)") }
            OnDispatch(ClassBump.self) { _ in Append("saw class bump") }
        }
        try await store.dispatch(Bump(tag: "first")).settled()
        try await store.dispatch(OtherBump()).settled()
        try await store.dispatch(SubclassBump()).settled()
        try await store.dispatch(Bump(tag: "skip")).settled()
        try await store.dispatch(ClassBump()).settled()
        try await store.dispatch(Bump(tag: "sentinel")).settled()
        try await store.waitForEntry("saw bump sentinel")

        #expect(store.entries("saw") == ["saw bump first", "saw class bump", "saw bump sentinel"])
    }

    @Test func onDispatch_typesForm_passesTheItemAndTheStatesAroundIt_toEveryType() async throws {
        let store = observe {
            OnDispatch(Bump.self, dispatch: DispatchSeen.self, AlsoDispatchSeen.self)
        }
        try await store.dispatch(OtherBump()).settled()
        try await store.dispatch(Bump(tag: "t")).settled()
        try await store.waitForEntry("dispatched Bump t 1->2")
        try await store.waitForEntry("also dispatched Bump")

        #expect(store.entries("dispatched") == ["dispatched Bump t 1->2"])
        #expect(store.entries("also dispatched") == ["also dispatched Bump"])
    }

    @Test func onDispatch_producedItemsPassTheInterceptors_afterTheTrigger() async throws {
        let recorder = RecordingInterceptor()
        let store = makeStore([
            recorder.interceptor,
            ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
                OnDispatch(Bump.self) { bump in Append("after \(bump.tag)") }
            },
        ])
        try await store.dispatch(Bump(tag: "trigger")).settled()
        try await store.waitForEntry("after trigger")

        #expect(recorder.seen.all == ["Bump", "Append(after trigger)"])
    }

    // MARK: OnNotification

    @Test func onNotification_closureForm_receivesTheNotification_andNilDispatchesNothing() async throws {
        let center = NotificationCenter()
        let store = observe(center: center) {
            OnNotification(.obsPing) { note in
                guard let value = note.userInfo?["value"] as? String else { return nil }
                return Append("closure note \(value)")
            }
        }
        center.post(.obsPing, values: ["a", nil])
        center.post(.obsPong, values: ["other name"])
        center.post(.obsPing, values: ["b"])
        try await store.waitForEntryThenSentinel("closure note b")

        #expect(store.entries("closure note") == ["closure note a", "closure note b"])
    }

    @Test func onNotification_typesForm_dispatchesEachTypeWhoseInitialiserAccepts() async throws {
        let center = NotificationCenter()
        let store = observe(center: center) {
            OnNotification(.obsPing, dispatch: NoteSeen.self)
        }
        center.post(.obsPing, values: ["a"])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "skipped", "skip": true])
        center.post(.obsPing, values: ["b"])
        try await store.waitForEntryThenSentinel("note obs.ping b")

        #expect(store.entries("note") == ["note obs.ping a", "note obs.ping b"])
    }

    @Test func onNotification_withASender_ignoresPostsFromOtherObjectsAndWithoutObject() async throws {
        let center = NotificationCenter()
        let sender = NSObject()
        let stranger = NSObject()
        let store = observe(center: center) {
            OnNotification(.obsPing, object: sender) { _ in Append("closure from sender") }
            OnNotification(.obsPing, object: sender, dispatch: NoteSeen.self)
            OnNotification(.obsPong) { _ in Append("pong") }
        }
        center.post(name: .obsPing, object: stranger, userInfo: ["value": "stranger"])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "no object"])
        center.post(name: .obsPing, object: sender, userInfo: ["value": "sender"])
        // Sentinel: posted last, through an unfiltered rule.
        center.post(name: .obsPong, object: nil)
        try await store.waitForEntryThenSentinel("pong")

        #expect(store.entries("closure from sender") == ["closure from sender"])
        #expect(store.entries("note") == ["note obs.ping sender"])
        withExtendedLifetime(sender) {}
    }
}

/// What happens to notification rules when their store goes away.
@Suite struct ReleasedStoreNotificationTests {
    /// A store whose rule counts each `.obsPing` posted to `center` in `calls`, and dispatches
    /// what `reaction` makes.
    private func storeCountingPings(
        on center: NotificationCenter, in calls: LockedValue<Int>, dispatching reaction: @escaping @Sendable () -> any Dispatchable
    ) -> ObsStore {
        makeStore([
            ObserverInterceptor.observe(notificationCenter: center) {
                OnNotification(.obsPing) { _ in
                    calls.withLock { $0 += 1 }
                    return reaction()
                }
            },
        ])
    }

    @Test func onNotificationClosure_isNotCalledAfterTheStoreIsReleased() async throws {
        let center = NotificationCenter()
        let calls = LockedValue(0)
        weak var weakStore: ObsStore?
        weak var weakDependencies: ObsDependencies?
        do {
            let store = storeCountingPings(on: center, in: calls) { Append("pinged") }
            weakStore = store
            weakDependencies = store.dependencies
            center.post(name: .obsPing, object: nil)
            try await store.waitForEntry("pinged")
        }
        // Nothing signals a release: the weak references are looked at until they clear.
        try await poll("the store to be released") { weakStore == nil }
        // Released last, with the interceptors, asynchronously on the store's queue.
        try await poll("the dependencies to be released") { weakDependencies == nil }

        center.post(name: .obsPing, object: nil)

        #expect(calls.value == 1)
    }

    @Test func postingFromAnotherThreadWhileTheStoreIsReleased_neitherCrashesNorKeepsDispatching() async throws {
        let center = NotificationCenter()
        let calls = LockedValue(0)
        let stop = LockedValue(false)
        let posterDone = LockedList<String>()
        weak var weakDependencies: ObsDependencies?
        do {
            let store = storeCountingPings(on: center, in: calls) { Bump() }
            weakDependencies = store.dependencies
            // Posts from a thread of its own until told to stop (or the test's timeout passes).
            Thread {
                let deadline = ContinuousClock.now + defaultTestTimeout
                while !stop.value, ContinuousClock.now < deadline {
                    center.post(name: .obsPing, object: nil)
                }
                posterDone.append("done")
            }.start()
            try await store.waitUntil("ten bumps from the poster") { store.state.count >= 10 }
        }
        try await poll("the dependencies to be released") { weakDependencies == nil }
        stop.withLock { $0 = true }
        try await posterDone.waitForCount(1)

        let callsAfterRelease = calls.value
        center.post(name: .obsPing, object: nil)
        #expect(calls.value == callsAfterRelease)
        #expect(callsAfterRelease >= 10)
    }
}
