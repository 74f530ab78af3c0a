import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// Rules written for another state type than the store's never fire, are reported once through
/// the `reporter:` closure, and leave the store and its other rules working.
@Suite struct MismatchedStateRuleTests {
    private func store(reports: LockedList<String>, @ObserverRulesBuilder _ rules: () -> [ObserverRule]) -> ObsStore {
        makeStore([
            ObserverInterceptor.observe(notificationCenter: NotificationCenter(), reporter: { message in
                reports.append(message)
            }, rules),
        ])
    }

    /// Bumps the count three times; a rule of the right type, on the same field, is the sentinel.
    private func driveAndWaitForSentinel(_ store: ObsStore) async throws {
        for _ in 1...3 {
            try await store.dispatch(Bump()).settled()
        }
        try await store.waitForEntry("own count 2->3")
    }

    /// There are `count` reports, and each names both state types.
    private func expectReportsNamingBothStateTypes(_ reports: LockedList<String>, count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let received = reports.all
        #expect(received.count == count, sourceLocation: sourceLocation)
        for report in received {
            #expect(report.contains("ForeignState"), "report: \(report)", sourceLocation: sourceLocation)
            #expect(report.contains("ObsState"), "report: \(report)", sourceLocation: sourceLocation)
        }
    }

    @Test func onChangeForAnotherStateType_neverFires_andIsReportedExactlyOnce() async throws {
        let reports = LockedList<String>()
        let store = store(reports: reports) {
            OnChange(of: \ForeignState.value) { _, _ in Append("foreign closure fired") }
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try await driveAndWaitForSentinel(store)

        #expect(store.entries("foreign").isEmpty)
        #expect(store.entries("own count") == ["own count 0->1", "own count 1->2", "own count 2->3"])
        expectReportsNamingBothStateTypes(reports, count: 1)
    }

    @Test func onChangeTypesFormForAnotherStateType_neverFires_andIsReportedExactlyOnce() async throws {
        let reports = LockedList<String>()
        let store = store(reports: reports) {
            OnChange(of: \ForeignState.value, dispatch: CountChanged.self)
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try await driveAndWaitForSentinel(store)

        #expect(store.entries("count").isEmpty)
        expectReportsNamingBothStateTypes(reports, count: 1)
    }

    @Test func onStateChangeForAnotherStateType_neverFires_andEachIsReportedExactlyOnce() async throws {
        let reports = LockedList<String>()
        let store = store(reports: reports) {
            OnStateChange { (_: ForeignState, _: ForeignState) in Append("foreign closure fired") }
            OnStateChange(when: { (_: ForeignState, _: ForeignState) in true }, dispatch: CountChanged.self)
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try await driveAndWaitForSentinel(store)

        #expect(store.entries("foreign").isEmpty)
        #expect(store.entries("count").isEmpty)
        expectReportsNamingBothStateTypes(reports, count: 2)
    }

    @Test func mismatchedRuleInsideAGroup_isReportedOnce_andTheGroupsOtherRulesStillFire() async throws {
        let reports = LockedList<String>()
        let group = ObserverRules("mixed") {
            OnChange(of: \ForeignState.value) { _, _ in Append("foreign closure fired") }
            OnDispatch(Bump.self) { _ in Append("group saw bump") }
        }
        let store = store(reports: reports) {
            group
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
        }
        try await driveAndWaitForSentinel(store)
        try await store.waitUntil("the group's rule to see three bumps") { store.entries("group saw bump").count == 3 }

        #expect(store.entries("foreign").isEmpty)
        #expect(reports.all.count == 1)
    }

    @Test func oneGroupInStoresOfTwoStateTypes_eachStoreReportsOnlyTheRuleWrittenForTheOtherType() async throws {
        let obsReports = LockedList<String>()
        let foreignReports = LockedList<String>()
        let group = ObserverRules("both state types") {
            OnChange(of: \ObsState.count) { old, new in Append("own count \(old)->\(new)") }
            OnChange(of: \ForeignState.value) { _, new in new >= 100 ? nil : AddToForeignValue(amount: 100) }
        }
        let obsStore = store(reports: obsReports) { group }
        let foreignStore = ForeignStore(
            interceptors: [
                ObserverInterceptor.observe(notificationCenter: NotificationCenter(), reporter: { message in
                    foreignReports.append(message)
                }) { group },
            ],
            stateInitializer: { ForeignState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "KatanaObserversTests.foreign.listeners"))
        )
        try await driveAndWaitForSentinel(obsStore)
        try await foreignStore.dispatch(AddToForeignValue(amount: 1)).settled()
        try await foreignStore.waitUntil("the foreign store's own rule") { foreignStore.state.value == 101 }

        #expect(obsReports.all.count == 1)
        #expect(obsReports.all.first?.contains("ForeignState.value") == true)
        #expect(foreignReports.all.count == 1)
        #expect(foreignReports.all.first?.contains("ObsState.count") == true)
    }
}
