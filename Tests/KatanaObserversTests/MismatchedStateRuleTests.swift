import Foundation
import Katana
import KatanaObservers
import Testing

/// Rules written for another state type than the store's never fire, are reported once through
/// the `reporter:` closure, and leave the store and its other rules working.
@Suite struct MismatchedStateRuleTests {
    private func store(reports: Shared<[String]>, @ObserverRulesBuilder _ rules: () -> [ObserverRule]) -> ObsStore {
        makeStore([
            ObserverInterceptor.observe(notificationCenter: NotificationCenter(), reporter: { message in
                reports.mutate { $0.append(message) }
            }, rules),
        ])
    }

    /// Bumps the count three times; a rule of the right type, on the same field, is the sentinel.
    private func driveAndWaitForSentinel(_ store: ObsStore) throws {
        for _ in 1...3 {
            try store.dispatch(Bump()).wait(timeout: testTimeout)
        }
        #expect(store.waitForEntry("own count 2->3"))
    }

    private func expectNamesBothStateTypes(_ report: String) {
        #expect(report.contains("ForeignState"), "report: \(report)")
        #expect(report.contains("ObsState"), "report: \(report)")
    }

    @Test func onChangeForAnotherStateType_neverFires_andIsReportedExactlyOnce() throws {
        let reports = Shared<[String]>([])
        let store = store(reports: reports) {
            OnChange(of: \ForeignState.value) { _, _ in Append("foreign closure fired") }
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try driveAndWaitForSentinel(store)

        #expect(store.entries("foreign").isEmpty)
        #expect(store.entries("own count") == ["own count 0->1", "own count 1->2", "own count 2->3"])
        let received = reports.get()
        #expect(received.count == 1)
        if let report = received.first {
            expectNamesBothStateTypes(report)
        }
    }

    @Test func onChangeTypesFormForAnotherStateType_neverFires_andIsReportedExactlyOnce() throws {
        let reports = Shared<[String]>([])
        let store = store(reports: reports) {
            OnChange(of: \ForeignState.value, dispatch: CountChanged.self)
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try driveAndWaitForSentinel(store)

        #expect(store.entries("count").isEmpty)
        let received = reports.get()
        #expect(received.count == 1)
        if let report = received.first {
            expectNamesBothStateTypes(report)
        }
    }

    @Test func onStateChangeForAnotherStateType_neverFires_andEachIsReportedExactlyOnce() throws {
        let reports = Shared<[String]>([])
        let store = store(reports: reports) {
            OnStateChange { (_: ForeignState, _: ForeignState) in Append("foreign closure fired") }
            OnStateChange(when: { (_: ForeignState, _: ForeignState) in true }, dispatch: CountChanged.self)
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try driveAndWaitForSentinel(store)

        #expect(store.entries("foreign").isEmpty)
        #expect(store.entries("count").isEmpty)
        let received = reports.get()
        #expect(received.count == 2)
        for report in received {
            expectNamesBothStateTypes(report)
        }
    }

    @Test func mismatchedRuleInsideAGroup_isReportedOnce_andTheGroupsOtherRulesStillFire() throws {
        let reports = Shared<[String]>([])
        let group = ObserverRules("mixed") {
            OnChange(of: \ForeignState.value) { _, _ in Append("foreign closure fired") }
            OnDispatch(Bump.self) { _ in Append("group saw bump") }
        }
        let store = store(reports: reports) {
            group
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try driveAndWaitForSentinel(store)
        #expect(eventually { store.entries("group saw bump").count == 3 })

        #expect(store.entries("foreign").isEmpty)
        #expect(reports.get().count == 1)
    }

    @Test func oneGroupInStoresOfTwoStateTypes_eachStoreReportsOnlyTheRuleWrittenForTheOtherType() throws {
        let obsReports = Shared<[String]>([])
        let foreignReports = Shared<[String]>([])
        let group = ObserverRules("both state types") {
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
            OnChange(of: \ForeignState.value) { _, new in new >= 100 ? nil : AddToForeignValue(amount: 100) }
        }
        let obsStore = store(reports: obsReports) { group }
        let foreignStore = ForeignStore(
            interceptors: [
                ObserverInterceptor.observe(notificationCenter: NotificationCenter(), reporter: { message in
                    foreignReports.mutate { $0.append(message) }
                }) { group },
            ],
            stateInitializer: { ForeignState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "KatanaObserversTests.foreign.listeners"))
        )
        try driveAndWaitForSentinel(obsStore)
        try foreignStore.dispatch(AddToForeignValue(amount: 1)).wait(timeout: testTimeout)
        #expect(eventually { foreignStore.state.value == 101 })

        #expect(obsReports.get().count == 1)
        #expect(obsReports.get().first?.contains("ForeignState.value") == true)
        #expect(foreignReports.get().count == 1)
        #expect(foreignReports.get().first?.contains("ObsState.count") == true)
    }
}
