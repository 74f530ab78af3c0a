import Dispatch
import Foundation
import Katana
import KatanaObservers
import Testing

/// Rules run on the observer's own serial queue, not on the store's: a rule that blocks does not
/// hold up later state updates.
@Suite struct ObserverQueueTests {
    /// A gate a rule waits at: the rule says when it is inside, the test says when it may leave.
    private final class Gate: Sendable {
        private let entered = DispatchSemaphore(value: 0)
        private let opened = DispatchSemaphore(value: 0)

        /// Called by the rule: announces it is blocked, then waits (bounded) to be let go.
        /// Returns whether it was let go, rather than timing out.
        func block() -> Bool {
            entered.signal()
            return opened.wait(timeout: .now() + .seconds(10)) == .success
        }

        /// Called by the test: whether the rule reached the gate before the deadline.
        func waitUntilBlocked() -> Bool {
            entered.wait(timeout: .now() + .seconds(10)) == .success
        }

        func open() {
            opened.signal()
        }
    }

    @Test func blockedOnChangeRule_doesNotDelayLaterStateUpdates() throws {
        let gate = Gate()
        let store = makeStore([
            ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
                OnChange(of: \ObsState.level) { _, new in
                    Append(gate.block() ? "rule released after \(new)" : "rule timed out")
                }
            },
        ])
        try store.dispatch(SetLevel("blocking")).wait(timeout: testTimeout)
        #expect(gate.waitUntilBlocked())

        for _ in 1...5 {
            try store.dispatch(Bump()).wait(timeout: testTimeout)
        }
        try store.appendAndWait("while blocked")

        #expect(store.state.count == 5)
        #expect(store.state.log == ["while blocked"])

        gate.open()
        #expect(store.waitForEntry("rule released after blocking"))
        #expect(store.entries("rule") == ["rule released after blocking"])
    }

    @Test func blockedOnDispatchRule_doesNotDelayLaterStateUpdates() throws {
        let gate = Gate()
        let store = makeStore([
            ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
                OnDispatch(SetLevel.self) { item in
                    Append(gate.block() ? "rule released after \(item.level)" : "rule timed out")
                }
            },
        ])
        try store.dispatch(SetLevel("blocking")).wait(timeout: testTimeout)
        #expect(gate.waitUntilBlocked())

        for _ in 1...5 {
            try store.dispatch(Bump()).wait(timeout: testTimeout)
        }

        #expect(store.state.count == 5)
        #expect(store.state.log.isEmpty)

        gate.open()
        #expect(store.waitForEntry("rule released after blocking"))
    }

    @Test func blockedKatanaStateObserver_doesNotDelayLaterStateUpdates() throws {
        let gate = Gate()
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
        try store.dispatch(SetLevel("blocking")).wait(timeout: testTimeout)
        #expect(gate.waitUntilBlocked())

        for _ in 1...5 {
            try store.dispatch(Bump()).wait(timeout: testTimeout)
        }

        #expect(store.state.count == 5)

        gate.open()
        #expect(store.waitForEntry("level info->blocking"))
    }
}
