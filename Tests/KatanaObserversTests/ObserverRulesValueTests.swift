import Dispatch
import Foundation
import Katana
import KatanaObservers
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

    @Test func rulesValue_runsStartChangeAndDispatchRules_likeTheClosureForm() throws {
        let store = makeStore(Interceptors {
            ObserverInterceptor.rules(notificationCenter: NotificationCenter()) {
                OnStart { Append("started") }
                OnDispatch(Bump.self) { _ in Append("saw bump") }
                OnChange(of: \ObsState.level) { old, new in Append("level \(old)->\(new)") }
            }
        })
        #expect(store.waitForEntry("started"))
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        try store.dispatch(SetLevel("debug")).wait(timeout: testTimeout)
        #expect(store.waitForEntry("saw bump"))
        #expect(store.waitForEntry("level info->debug"))
        #expect(store.state.count == 1)
    }

    @Test func oneRulesValueGivenToTwoStores_eachStoreRunsItsOwnRules() throws {
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
        #expect(first.waitForEntry("started"))
        #expect(second.waitForEntry("started"))
        center.post(name: name, object: nil)
        #expect(first.waitForEntry("pinged"))
        #expect(second.waitForEntry("pinged"))
        // One notification, one reaction per store: the runtimes are not shared.
        #expect(first.entries("pinged") == ["pinged"])
        #expect(second.entries("pinged") == ["pinged"])
    }

    @Test func rulesValueMixedWithAClosureInterceptor_bothSeeTheItems_inTheOrderWritten() throws {
        let seen = Shared<[String]>([])
        let closure: StoreInterceptor = { _ in
            { next in
                { item in
                    seen.mutate { $0.append("closure:\(type(of: item))") }
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
        try store.dispatch(Bump()).wait(timeout: testTimeout)
        #expect(store.waitForEntry("saw bump"))
        #expect(eventually { seen.get().contains("closure:Append") })
        #expect(seen.get().prefix(2) == ["closure:Bump", "closure:Append"])
    }
}
