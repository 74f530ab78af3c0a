import Foundation
import Katana
import KatanaObservers
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

    @Test func onStart_typesForm_dispatchesEachTypeInOrder_skippingNilInitialisers() throws {
        let store = observe {
            OnStart(StartFirst.self, DeclinesAtStart.self, StartSecond.self)
        }
        try store.appendAndWait("user")

        #expect(store.state.log == ["start first", "start second", "user"])
    }

    @Test func onStart_closureForm_dispatchesWhatTheClosureReturns_andNothingForNil() throws {
        let calls = Shared(0)
        let store = observe {
            OnStart {
                calls.mutate { $0 += 1 }
                return nil
            }
            OnStart { Append("closure start") }
        }
        try store.appendAndWait("user")

        #expect(store.state.log == ["closure start", "user"])
        #expect(calls.get() == 1)
    }

    // MARK: OnStateChange

    @Test func onStateChange_whenForm_dispatchesTheTypesWhenTheConditionHolds() throws {
        let store = observe {
            OnStateChange(when: { (old: ObsState, new: ObsState) in old.count != new.count }, dispatch: CountChanged.self, EvenCountOnly.self)
        }
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        try store.appendAndWait("unrelated entry")
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        #expect(store.waitForEntry("even 2"))
        #expect(store.waitForEntry("count 1->2"))

        #expect(store.entries("count") == ["count 0->1", "count 1->2"])
        #expect(store.entries("even") == ["even 2"])
    }

    @Test func onStateChange_closureForm_receivesOldAndNewState_andIgnoresSideEffects() throws {
        let store = observe {
            OnStateChange { (old: ObsState, new: ObsState) -> (any Dispatchable)? in
                let last = new.log.last ?? "nothing"
                guard !last.hasPrefix("changed") else { return nil }
                return Append("changed \(old.log.count)->\(new.log.count) by \(last)")
            }
        }
        // Had the side effect fired the rule, it would have produced "changed 0->0 by nothing".
        try store.dispatch(DoNothing()).wait(timeout: testTimeout)
        try store.dispatch(AppendViaSideEffect(entry: "from effect")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("changed 0->1 by from effect"))
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        // Sentinel: its own change fires the rule after anything earlier could have.
        try store.appendAndWait("sentinel")
        #expect(eventually { store.state.log.last?.hasSuffix("by sentinel") == true })

        // The side effects changed nothing themselves; `Bump` changed the state but left the log's
        // last entry a "changed" one, for which the closure returns nil.
        #expect(store.entries("changed") == ["changed 0->1 by from effect", "changed 2->3 by sentinel"])
    }

    // MARK: OnChange

    @Test func onChange_closureForm_receivesOldAndNewValue_andFiresOnlyWhenTheValueChanges() throws {
        let store = observe {
            OnChange(of: \ObsState.level) { old, new in Append("level \(old)->\(new)") }
        }
        try store.dispatch(SetLevel("debug")).wait(timeout: testTimeout)
        try store.dispatch(Bump()).wait(timeout: testTimeout)               // another field
        try store.dispatch(SetLevel("debug")).wait(timeout: testTimeout)    // the same value
        try store.dispatch(DoNothing()).wait(timeout: testTimeout)          // a side effect
        try store.dispatch(SetLevel("warn")).wait(timeout: testTimeout)     // sentinel: a real change
        #expect(store.waitForEntry("level debug->warn"))

        #expect(store.entries("level") == ["level info->debug", "level debug->warn"])
    }

    @Test func onChange_closureReturningNil_dispatchesNothing() throws {
        let store = observe {
            OnChange(of: \ObsState.level) { _, new in new == "quiet" ? nil : Append("level now \(new)") }
        }
        try store.dispatch(SetLevel("quiet")).wait(timeout: testTimeout)
        try store.dispatch(SetLevel("loud")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("level now loud"))

        #expect(store.entries("level") == ["level now loud"])
    }

    @Test func onChange_typesForm_dispatchesWithTheWholeStatesOnlyWhenTheValueChanges() throws {
        let store = observe {
            OnChange(of: \ObsState.count, dispatch: CountChanged.self, EvenCountOnly.self)
        }
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        try store.dispatch(SetLevel("debug")).wait(timeout: testTimeout)
        try store.appendAndWait("unrelated entry")
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        #expect(store.waitForEntry("count 1->2"))
        #expect(store.waitForEntry("even 2"))

        #expect(store.entries("count") == ["count 0->1", "count 1->2"])
        #expect(store.entries("even") == ["even 2"])
    }

    @Test func onChange_ofAnOptionalValue_firesForChangesToAndFromNil_butNotForTheSameValue() throws {
        let store = observe {
            OnChange(of: \ObsState.nickname) { old, new in Append("nickname \(old ?? "nil")->\(new ?? "nil")") }
        }
        try store.dispatch(SetNickname("ann")).wait(timeout: testTimeout)
        try store.dispatch(SetNickname("ann")).wait(timeout: testTimeout)
        try store.dispatch(SetNickname(nil)).wait(timeout: testTimeout)
        try store.dispatch(SetNickname("bob")).wait(timeout: testTimeout)
        try store.dispatch(SetNickname("bo")).wait(timeout: testTimeout)   // sentinel
        #expect(store.waitForEntry("nickname bob->bo"))

        #expect(store.entries("nickname") == ["nickname nil->ann", "nickname ann->nil", "nickname nil->bob", "nickname bob->bo"])
    }

    // MARK: OnDispatch

    @Test func onDispatch_closureForm_receivesTheTypedItem_forTheExactTypeOnly() throws {
        let store = observe {
            OnDispatch(Bump.self) { bump in bump.tag == "skip" ? nil : Append("saw bump \(bump.tag)") }
            OnDispatch(ClassBump.self) { _ in Append("saw class bump") }
        }
        try store.dispatch(Bump(tag: "first")).wait(timeout: testTimeout)
        try store.dispatch(OtherBump()).wait(timeout: testTimeout)
        try store.dispatch(SubclassBump()).wait(timeout: testTimeout)
        try store.dispatch(Bump(tag: "skip")).wait(timeout: testTimeout)
        try store.dispatch(ClassBump()).wait(timeout: testTimeout)
        try store.dispatch(Bump(tag: "sentinel")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("saw bump sentinel"))

        #expect(store.entries("saw") == ["saw bump first", "saw class bump", "saw bump sentinel"])
    }

    @Test func onDispatch_typesForm_passesTheItemAndTheStatesAroundIt_toEveryType() throws {
        let store = observe {
            OnDispatch(Bump.self, dispatch: DispatchSeen.self, AlsoDispatchSeen.self)
        }
        try store.dispatch(OtherBump()).wait(timeout: testTimeout)
        try store.dispatch(Bump(tag: "t")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("dispatched Bump t 1->2"))
        #expect(store.waitForEntry("also dispatched Bump"))

        #expect(store.entries("dispatched") == ["dispatched Bump t 1->2"])
        #expect(store.entries("also dispatched") == ["also dispatched Bump"])
    }

    @Test func onDispatch_producedItemsPassTheInterceptors_afterTheTrigger() throws {
        let recorder = RecordingInterceptor()
        let store = makeStore([
            recorder.interceptor,
            ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
                OnDispatch(Bump.self) { bump in Append("after \(bump.tag)") }
            },
        ])
        try store.dispatch(Bump(tag: "trigger")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("after trigger"))

        #expect(recorder.seen.get() == ["Bump", "Append(after trigger)"])
    }

    // MARK: OnNotification

    @Test func onNotification_closureForm_receivesTheNotification_andNilDispatchesNothing() throws {
        let center = NotificationCenter()
        let store = observe(center: center) {
            OnNotification(.obsPing) { note in
                guard let value = note.userInfo?["value"] as? String else { return nil }
                return Append("closure note \(value)")
            }
        }
        center.post(name: .obsPing, object: nil, userInfo: ["value": "a"])
        center.post(name: .obsPing, object: nil)
        center.post(name: .obsPong, object: nil, userInfo: ["value": "other name"])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "b"])
        #expect(store.waitForEntry("closure note b"))
        try store.appendAndWait("sentinel")

        #expect(store.entries("closure note") == ["closure note a", "closure note b"])
    }

    @Test func onNotification_typesForm_dispatchesEachTypeWhoseInitialiserAccepts() throws {
        let center = NotificationCenter()
        let store = observe(center: center) {
            OnNotification(.obsPing, dispatch: NoteSeen.self)
        }
        center.post(name: .obsPing, object: nil, userInfo: ["value": "a"])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "skipped", "skip": true])
        center.post(name: .obsPing, object: nil, userInfo: ["value": "b"])
        #expect(store.waitForEntry("note obs.ping b"))
        try store.appendAndWait("sentinel")

        #expect(store.entries("note") == ["note obs.ping a", "note obs.ping b"])
    }

    @Test func onNotification_withASender_ignoresPostsFromOtherObjectsAndWithoutObject() throws {
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
        #expect(store.waitForEntry("pong"))
        try store.appendAndWait("sentinel")

        #expect(store.entries("closure from sender") == ["closure from sender"])
        #expect(store.entries("note") == ["note obs.ping sender"])
        withExtendedLifetime(sender) {}
    }
}

/// What happens to notification rules when their store goes away.
@Suite struct ReleasedStoreNotificationTests {
    @Test func onNotificationClosure_isNotCalledAfterTheStoreIsReleased() throws {
        let center = NotificationCenter()
        let calls = Shared(0)
        weak var weakStore: ObsStore?
        weak var weakDependencies: ObsDependencies?
        do {
            let store = makeStore([
                ObserverInterceptor.observe(notificationCenter: center) {
                    OnNotification(.obsPing) { _ in
                        calls.mutate { $0 += 1 }
                        return Append("pinged")
                    }
                },
            ])
            weakStore = store
            weakDependencies = store.dependencies
            center.post(name: .obsPing, object: nil)
            #expect(store.waitForEntry("pinged"))
        }
        #expect(eventually { weakStore == nil })
        // Released last, with the interceptors, asynchronously on the store's queue.
        #expect(eventually { weakDependencies == nil })

        center.post(name: .obsPing, object: nil)

        #expect(calls.get() == 1)
    }

    @Test func postingFromAnotherThreadWhileTheStoreIsReleased_neitherCrashesNorKeepsDispatching() throws {
        let center = NotificationCenter()
        let calls = Shared(0)
        let stop = Shared(false)
        let posterDone = DispatchSemaphore(value: 0)
        weak var weakDependencies: ObsDependencies?
        do {
            let store = makeStore([
                ObserverInterceptor.observe(notificationCenter: center) {
                    OnNotification(.obsPing) { _ in
                        calls.mutate { $0 += 1 }
                        return Bump()
                    }
                },
            ])
            weakDependencies = store.dependencies
            DispatchQueue.global().async {
                let deadline = ContinuousClock.now + testTimeout
                while !stop.get(), ContinuousClock.now < deadline {
                    center.post(name: .obsPing, object: nil)
                }
                posterDone.signal()
            }
            #expect(eventually { store.state.count >= 10 })
        }
        #expect(eventually { weakDependencies == nil })
        stop.mutate { $0 = true }
        #expect(posterDone.wait(timeout: .now() + .seconds(10)) == .success)

        let callsAfterRelease = calls.get()
        center.post(name: .obsPing, object: nil)
        #expect(calls.get() == callsAfterRelease)
        #expect(callsAfterRelease >= 10)
    }
}
