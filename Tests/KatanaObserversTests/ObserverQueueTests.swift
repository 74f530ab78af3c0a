import Dispatch
import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// Rules run on the observer's own serial queue, not on the store's: a rule that blocks does not
/// hold up later state updates.
@Suite struct ObserverQueueTests {
    /// A gate a rule waits at: the rule says when it is inside, the test says when it may leave.
    private final class Gate: Sendable {
        private let entered = LockedList<String>()
        private let opened = DispatchSemaphore(value: 0)

        /// Called by the rule, on the observer's queue: announces it is blocked, then waits to be
        /// let go (by the test, which opens the gate whatever happens when it ends; the bound is
        /// only a safety net). Returns whether it was let go, rather than timing out.
        func block() -> Bool {
            entered.append("blocked")
            return opened.wait(timeout: .now() + .seconds(600)) == .success
        }

        /// Called by the test: suspends until the rule has reached the gate.
        func waitUntilBlocked() async throws {
            try await entered.waitForCount(1)
        }

        func open() {
            opened.signal()
        }
    }

    @Test func blockedOnChangeRule_doesNotDelayLaterStateUpdates() async throws {
        let gate = Gate()
        defer { gate.open() }
        let store = makeStore([
            ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
                OnChange(of: \ObsState.level) { _, new in
                    Append(gate.block() ? "rule released after \(new)" : "rule timed out")
                }
            },
        ])
        try await store.dispatch(SetLevel("blocking")).settled()
        try await gate.waitUntilBlocked()

        for _ in 1...5 {
            try await store.dispatch(Bump()).settled()
        }
        try await store.appendAndWait("while blocked")

        #expect(store.state.count == 5)
        #expect(store.state.log == ["while blocked"])

        gate.open()
        try await store.waitForEntry("rule released after blocking")
        #expect(store.entries("rule") == ["rule released after blocking"])
    }

    @Test func blockedOnDispatchRule_doesNotDelayLaterStateUpdates() async throws {
        let gate = Gate()
        defer { gate.open() }
        let store = makeStore([
            ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
                OnDispatch(SetLevel.self) { item in
                    Append(gate.block() ? "rule released after \(item.level)" : "rule timed out")
                }
            },
        ])
        try await store.dispatch(SetLevel("blocking")).settled()
        try await gate.waitUntilBlocked()

        for _ in 1...5 {
            try await store.dispatch(Bump()).settled()
        }

        #expect(store.state.count == 5)
        #expect(store.state.log.isEmpty)

        gate.open()
        try await store.waitForEntry("rule released after blocking")
    }

    @Test func blockedKatanaStateObserver_doesNotDelayLaterStateUpdates() async throws {
        let gate = Gate()
        defer { gate.open() }
        let store = makeStore([
            ObserverInterceptor.observe(
                [.onStateChange({ old, new in
                    // Katana's observer closure itself is rule work: it runs off the store's queue.
                    guard (old as? ObsState)?.level != (new as? ObsState)?.level else { return false }
                    return gate.block()
                }, [LevelChanged.self])],
                notificationCenter: NotificationCenter()
            ),
        ])
        try await store.dispatch(SetLevel("blocking")).settled()
        try await gate.waitUntilBlocked()

        for _ in 1...5 {
            try await store.dispatch(Bump()).settled()
        }

        #expect(store.state.count == 5)

        gate.open()
        try await store.waitForEntry("level info->blocking")
    }
}
