import Dispatch
import Foundation
import Katana
import KatanaTestSupport
@testable import KatanaLegacy

/// A Swift Flow subscriber that records the counter of every state it is given, and flags any call
/// made after the test declared it closed (set right after `unsubscribe` returned).
@available(*, deprecated)
final class CounterSubscriber: StoreSubscriber, Sendable {
    let counters = LockedList<Int>()
    let callsAfterClose = LockedList<Int>()
    private let closedFlag = LockedList<Bool>()
    /// Runs inside every call, after recording (for subscribers that act on what they see).
    let onState: @Sendable (CounterSubscriber, LegacyState) -> Void

    init(onState: @escaping @Sendable (CounterSubscriber, LegacyState) -> Void = { _, _ in }) {
        self.onState = onState
    }

    func newState(state: LegacyState) {
        if !closedFlag.all.isEmpty {
            callsAfterClose.append(state.counter)
        }
        counters.append(state.counter)
        onState(self, state)
    }

    /// From now on, any call is a violation.
    func close() {
        closedFlag.append(true)
    }
}

/// A subscriber that expects another state type: the store must skip it.
@available(*, deprecated)
final class ForeignSubscriber: StoreSubscriber, Sendable {
    let calls = LockedList<String>()

    func newState(state: ForeignState) {
        calls.append(state.text)
    }
}

/// A subscriber that unsubscribes in its `deinit`, as Swift Flow view controllers often did.
@available(*, deprecated)
final class SelfRemovingSubscriber: StoreSubscriber, Sendable {
    let store: LegacyStore

    init(store: LegacyStore) {
        self.store = store
    }

    func newState(state: LegacyState) {}

    deinit {
        store.unsubscribe(self)
    }
}

/// A returning side effect, to dispatch through the existential `dispatch`.
struct SwiftFlowAnswer: ReturningSideEffect {
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        42
    }
}

/// A plain side effect that records that it ran.
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
struct SwiftFlowProbeSideEffect: SideEffect {
    let ran: LockedList<String>
    func sideEffect(_ context: SideEffectContext<LegacyState, LegacyDependencies>) throws {
        ran.append("ran")
    }
}

/// How many Swift Flow subscriptions the store's registry holds (0 when it has none).
@available(*, deprecated)
func swiftFlowSubscriptions(of store: LegacyStore) -> Int {
    SubscriberRegistryDirectory.shared.existingRegistry(for: store)?.count ?? 0
}

/// Waits until every change dispatched so far has reached the store's listeners (and so its Swift Flow
/// subscribers): a listener added now is called after the ones queued before it.
@available(*, deprecated, message: "Built on the deprecated LegacySideEffectDependencyContainer")
func drainListeners(of store: LegacyStore) async throws {
    let probe = LockedList<Int>()
    let unsubscribe = store.addListener { _, _ in probe.append(1) }
    defer { unsubscribe() }
    try await store.dispatch(Barrier()).settled()
    try await probe.waitForCount(1)
}
