import Dispatch
import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// `ObserverInterceptor.rules { ... }`: observer rules as an interceptor value, in an
/// `Interceptors` chain, beside closure interceptors.
@Suite struct ObserverRulesValueTests {
    private func makeStore(_ interceptors: Interceptors) -> ObsStore {
        ObsStore(
            interceptors: interceptors,
            stateInitializer: { ObsState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ObserverRulesValueTests.listeners"))
        )
    }

    @Test func rulesValue_runsStartChangeAndDispatchRules_likeTheClosureForm() async throws {
        let store = makeStore(Interceptors {
            ObserverInterceptor.rules(notificationCenter: NotificationCenter()) {
                OnStart { Append("started") }
                OnDispatch(Bump.self) { _ in Append("saw bump") }
                OnChange(of: \ObsState.level) { old, new in Append("level \(old)->\(new)") }
            }
        })
        try await store.waitForEntry("started")
        try await store.dispatch(Bump()).settled()
        try await store.dispatch(SetLevel("debug")).settled()
        try await store.waitForEntry("saw bump")
        try await store.waitForEntry("level info->debug")
        #expect(store.state.count == 1)
    }

    @Test func oneRulesValueGivenToTwoStores_eachStoreRunsItsOwnRules() async throws {
        let center = NotificationCenter()
        let name = Notification.Name("ObserverRulesValueTests.ping")
        let interceptors = Interceptors {
            ObserverInterceptor.rules(notificationCenter: center) {
                OnStart { Append("started") }
                OnNotification(name) { _ in Append("pinged") }
            }
        }
        let first = makeStore(interceptors)
        let second = makeStore(interceptors)
        try await first.waitForEntry("started")
        try await second.waitForEntry("started")
        center.post(name: name, object: nil)
        try await first.waitForEntry("pinged")
        try await second.waitForEntry("pinged")
        // One notification, one reaction per store: the runtimes are not shared.
        #expect(first.entries("pinged") == ["pinged"])
        #expect(second.entries("pinged") == ["pinged"])
    }

    @Test func rulesValueMixedWithAClosureInterceptor_bothSeeTheItems_inTheOrderWritten() async throws {
        let seen = LockedList<String>()
        let closure: StoreInterceptor = { _ in
            { next in
                { item in
                    seen.append("closure:\(type(of: item))")
                    try next(item)
                }
            }
        }
        let store = makeStore(Interceptors {
            closure
            ObserverInterceptor.rules(notificationCenter: NotificationCenter()) {
                OnDispatch(Bump.self) { _ in Append("saw bump") }
            }
        })
        try await store.dispatch(Bump()).settled()
        try await store.waitForEntry("saw bump")
        try await store.waitUntil("the closure to see the rule's Append") { seen.all.contains("closure:Append") }
        #expect(seen.all.prefix(2) == ["closure:Bump", "closure:Append"])
    }
}
