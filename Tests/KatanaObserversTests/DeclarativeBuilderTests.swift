import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// The declarative form's composition: `ObserverRulesBuilder` control flow, optional rules, and
/// `ObserverRules` groups (nested, and shared between stores).
@Suite struct DeclarativeBuilderTests {
    private enum Mode { case quiet, verbose }

    /// Builds an interceptor whose rules depend on the arguments, so no branch is decided at compile time.
    private func interceptor(enabled: Bool, suffix: String?, mode: Mode, repeats: Int, optionalRule: OnStart?) -> StoreInterceptor {
        ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
            OnStart { Append("plain") }
            if enabled {
                OnStart { Append("if enabled") }
            }
            if !enabled {
                OnStart { Append("if disabled") }
            }
            if let suffix {
                OnStart { Append("if let \(suffix)") }
            }
            if enabled {
                OnStart { Append("then branch") }
            } else {
                OnStart { Append("else branch") }
            }
            switch mode {
            case .quiet: OnStart { Append("switch quiet") }
            case .verbose: OnStart { Append("switch verbose") }
            }
            for index in 0..<repeats {
                OnStart { Append("for \(index)") }
            }
            optionalRule
        }
    }

    @Test func builder_includesOnlyTheRulesOfTakenBranches_everyLoopIteration_andNonNilOptionalRules() async throws {
        let store = makeStore([
            interceptor(enabled: true, suffix: "x", mode: .verbose, repeats: 3, optionalRule: OnStart { Append("optional rule") }),
        ])
        try await store.appendAndWait("user")

        #expect(store.state.log == [
            "plain", "if enabled", "if let x", "then branch", "switch verbose", "for 0", "for 1", "for 2", "optional rule", "user",
        ])
    }

    @Test func builder_leavesOutFailedConditions_nilIfLet_emptyLoops_andNilOptionalRules() async throws {
        let store = makeStore([
            interceptor(enabled: false, suffix: nil, mode: .quiet, repeats: 0, optionalRule: nil),
        ])
        try await store.appendAndWait("user")

        #expect(store.state.log == ["plain", "if disabled", "else branch", "switch quiet", "user"])
    }

    @Test func observerRules_keepTheirName_andNestedGroupsFlattenIntoTheirRules() async throws {
        let inner = ObserverRules("inner") {
            OnStart { Append("inner start") }
            OnDispatch(Bump.self) { bump in Append("inner saw bump \(bump.tag)") }
        }
        let outer = ObserverRules("outer") {
            OnStart { Append("outer start") }
            inner
            OnChange(of: \ObsState.level) { old, new in Append("outer level \(old)->\(new)") }
        }
        #expect(inner.name == "inner")
        #expect(outer.name == "outer")
        #expect(inner.rules.count == 2)
        #expect(outer.rules.count == 4)

        let store = makeStore([
            ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
                OnStart { Append("top start") }
                outer
            },
        ])
        try await store.dispatch(Bump(tag: "b")).settled()
        try await store.dispatch(SetLevel("debug")).settled()
        try await store.waitForEntry("inner saw bump b")
        try await store.waitForEntry("outer level info->debug")

        #expect(Array(store.state.log.prefix(3)) == ["top start", "outer start", "inner start"])
        #expect(store.state.log.count == 5)
    }

    @Test func oneGroupValue_usedByTwoStoresAtOnce_eachStoreReactsIndependently() async throws {
        let center = NotificationCenter()
        let shared = ObserverRules("shared") {
            OnStart { Append("started") }
            OnChange(of: \ObsState.count) { old, new in Append("count \(old)->\(new)") }
            OnNotification(.obsPing) { _ in Append("pinged") }
        }
        let first = makeStore([ObserverInterceptor.observe(notificationCenter: center) { shared }])
        let second = makeStore([ObserverInterceptor.observe(notificationCenter: center) { shared }])

        let bumps = [(first, 3), (second, 1)]
        DispatchQueue.concurrentPerform(iterations: bumps.count) { index in
            let (store, times) = bumps[index]
            for _ in 0..<times {
                store.dispatch(Bump())
            }
        }
        center.post(name: .obsPing, object: nil)
        try await first.waitForEntry("count 2->3")
        try await second.waitForEntry("count 0->1")
        try await first.waitForEntry("pinged")
        try await second.waitForEntry("pinged")
        try await first.appendAndWait("sentinel")
        try await second.appendAndWait("sentinel")

        #expect(first.state.count == 3)
        #expect(second.state.count == 1)
        #expect(first.entries("count") == ["count 0->1", "count 1->2", "count 2->3"])
        #expect(second.entries("count") == ["count 0->1"])
        #expect(first.entries("started") == ["started"])
        #expect(second.entries("started") == ["started"])
        #expect(first.entries("pinged") == ["pinged"])
        #expect(second.entries("pinged") == ["pinged"])
    }
}
