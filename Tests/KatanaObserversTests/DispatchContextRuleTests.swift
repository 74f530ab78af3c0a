import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// What an observer rule dispatches carries the dispatch context of the item that triggered it
/// (the request behind it), although the rule runs on the observers' own queue.
@Suite struct DispatchContextRuleTests {
    enum Request {
        @TaskLocal static var id: String?
    }

    /// Notes each item's type with the dispatch context the interceptors see.
    struct ContextWatcher: Interceptor {
        let seen: LockedList<String>
        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            seen.append("\(type(of: item)) \(InterceptedItem.currentDispatchContext as? String ?? "none")")
            try next(item)
        }
    }

    @Test func ruleDispatchesCarryTheirTriggersContext() async throws {
        let seen = LockedList<String>()
        let store = ObsStore(
            interceptors: Interceptors {
                ContextWatcher(seen: seen)
                ObserverInterceptor.rules(notificationCenter: NotificationCenter()) {
                    OnDispatch(Bump.self) { _ in Append("saw bump") }
                    OnChange(of: \ObsState.level) { _, new in Append("level \(new)") }
                }
            },
            stateInitializer: { ObsState() },
            configuration: .init(dispatchContext: DispatchContext(
                capture: { Request.id },
                restore: { value, body in Request.$id.withValue(value as? String) { body() } },
                restoreAsync: { value, body in await Request.$id.withValue(value as? String) { await body() } }
            ))
        )
        try await Request.$id.withValue("r1") {
            try await store.dispatch(Bump()).settled()
        }
        try await Request.$id.withValue("r2") {
            try await store.dispatch(SetLevel("debug")).settled()
        }
        try await store.waitForEntry("saw bump")
        try await store.waitForEntry("level debug")
        let lines = try await seen.waitForCount(4)
        #expect(Set(lines) == ["Bump r1", "Append r1", "SetLevel r2", "Append r2"])
    }
}
