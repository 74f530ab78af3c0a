import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaObservers
import KatanaTestSupport
import NotificationBridge
import Testing

/// Holds an object without keeping it alive, to check it was deallocated.
final class WeakBox<T: AnyObject>: @unchecked Sendable {
    // @unchecked: Swift reads and writes weak references atomically; `value` is set once.
    weak var value: T?
    init(_ value: T) { self.value = value }
}

/// An object whose only job is to be captured by an interceptor, to see when the chain is freed.
final class InterceptorProbe: Sendable {}

/// The notification center the released stores' bridges and observers use (the tests of this
/// suite run one after another).
let releaseCenter = NotificationCenter()

extension Notification.Name {
    static let releaseHeartbeat = Notification.Name("ReliabilityTests.release.heartbeat")
    static let releaseAfterwards = Notification.Name("ReliabilityTests.release.afterwards")
}

/// Dependencies as a service has them: they own a NotificationBridge with a 1 ms heartbeat timer
/// that an observer rule of the same store turns into dispatches while the store is under load.
final class BridgedDependencies: SideEffectDependencyContainer {
    let bridge: NotificationBridge
    let heartbeat: NotificationBridgeSubscription?

    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        bridge = NotificationBridge(center: releaseCenter)
        heartbeat = try? bridge.post(.releaseHeartbeat, every: .milliseconds(1))
    }
}

typealias BridgedStore = Store<LoadState, BridgedDependencies>

/// Blocks the store's updater queue until the test opens the gate (or 300 s pass: a safety net
/// long enough for 10,000 dispatches under the thread sanitizer on a loaded machine).
struct Gate: StateUpdater {
    let entered: LockedList<String>
    let release: DispatchSemaphore
    func updateState(_ state: inout LoadState) {
        entered.append("entered")
        _ = release.wait(timeout: .now() + 300)
    }
}

/// Runs the state initializer only when told to, so items can pile up before the store is ready.
final class DeferredExecutor: Executor, @unchecked Sendable {
    // @unchecked: `blocks` is only touched while holding `lock`.
    private let lock = NSLock()
    private var blocks: [@Sendable () -> Void] = []

    func executeAsync(_ block: @escaping @Sendable () -> Void) {
        lock.withLock { blocks.append(block) }
    }

    func executeSync<T>(_ block: () throws -> T) rethrows -> T {
        try block()
    }

    func runPending() {
        let pending = lock.withLock { let all = blocks; blocks = []; return all }
        for block in pending { block() }
    }
}

extension ReliabilityStorms {
    /// Item 3: the last reference to a store dropped from another thread while 10,000 items wait:
    /// the items hold the store until they are handled, then it and everything it owns is freed.
    @Suite(.serialized) struct ReleaseUnderLoadTests {
        static let pendingItems = 10_000

        /// What the test keeps of a store after giving away its only strong reference.
        struct Weak {
            let store: WeakBox<BridgedStore>
            let dependencies: WeakBox<BridgedDependencies>
            let bridge: WeakBox<NotificationBridge>
            let heartbeat: WeakBox<NotificationBridgeSubscription>
            let probe: WeakBox<InterceptorProbe>
        }

        /// Builds a store whose only strong reference is in `holder`.
        private func makeStore(
            holder: LockedValue<BridgedStore?>,
            afterwardsRuleFired: LockedValue<Int>,
            heartbeats: LockedValue<Int>,
            executor: (any Executor)?
        ) throws -> Weak {
            let probe = InterceptorProbe()
            let probing: StoreInterceptor = { _ in { next in { item in _ = probe; try next(item) } } }
            let observer = ObserverInterceptor.observe(notificationCenter: releaseCenter, reporter: { _ in }) {
                OnNotification(.releaseHeartbeat) { _ in heartbeats.withLock { $0 += 1 }; return RuleAdd(amount: 1) }
                OnNotification(.releaseAfterwards) { _ in afterwardsRuleFired.withLock { $0 += 1 }; return RuleAdd(amount: 1) }
            }
            let configuration = executor.map { BridgedStore.Configuration(stateInitializerAsyncProvider: $0) } ?? .init()
            let store = BridgedStore(
                interceptors: [probing, observer, legacyParts.middlewareInterceptor {}],
                stateInitializer: { LoadState() },
                configuration: configuration
            )
            store.addListener { _, _ in }
            let heartbeat = try #require(store.dependencies.heartbeat)
            let weak = Weak(
                store: WeakBox(store),
                dependencies: WeakBox(store.dependencies),
                bridge: WeakBox(store.dependencies.bridge),
                heartbeat: WeakBox(heartbeat),
                probe: WeakBox(probe)
            )
            holder.withLock { $0 = store }
            return weak
        }

        /// Dispatches the mix of 10,000 items from 4 threads; returns the promises' ledger and plan.
        private func dispatchPending(to holder: LockedValue<BridgedStore?>) async throws -> (PromiseLedger, [PlannedItem]) {
            let items = (0..<Self.pendingItems).map { PlannedItem(id: $0, faults: false) }
            let ledger = PromiseLedger(count: items.count)
            let queue = CallbackQueues(label: "ReliabilityTests.release.promises")
            let store = try #require(holder.value)
            let perThread = items.count / 4
            let finished = await runConcurrently(threads: 4) { thread in
                for index in (thread * perThread)..<((thread + 1) * perThread) {
                    items[index].dispatch(to: store, watchedBy: ledger, as: index, on: queue)
                }
            }
            #expect(finished)
            return (ledger, items)
        }

        /// Drops the only strong reference from a thread of its own; the items waiting keep the store.
        private func dropReference(_ holder: LockedValue<BridgedStore?>, weak: Weak) async {
            let released = await runConcurrently(threads: 1) { _ in holder.withLock { $0 = nil } }
            #expect(released)
            #expect(weak.store.value != nil, "the store went while its items waited")
        }

        /// Every pending item was handled: no promise was rejected because the store went away.
        /// Updaters and `Compute` have their usual outcome; the side effects typed for
        /// `LoadDependencies` are handled and rejected because this store's dependencies are
        /// `BridgedDependencies` (what matters here is that they reached the store, not what they did).
        private func expectAllHandled(_ ledger: PromiseLedger, _ items: [PlannedItem]) async {
            #expect(await ledger.allSettled(), "settled \(ledger.settledCount) of \(items.count)")
            #expect(ledger.settledMoreThanOnce == 0)
            var wrong: [String] = []
            for (index, item) in items.enumerated() {
                let outcome = ledger.outcome(index)
                let handled: Bool
                switch item.kind {
                case .add, .legacyAdd, .compute:
                    handled = outcome == item.expectedOutcome
                case .touch, .asyncDeposit, .asyncCompute:
                    if case .rejected(let description)? = outcome {
                        handled = description.contains("needs a Katana.SideEffectContext<")
                    } else {
                        handled = false
                    }
                }
                if !handled, wrong.count < 10 {
                    wrong.append("item \(item.id) \(item.kind): \(String(describing: outcome))")
                }
            }
            #expect(wrong.isEmpty, "\(wrong)")
        }

        /// The store, its dependencies, its bridge and the bridge's subscription, and its interceptor
        /// chain are all deallocated; the observer's notification observers are gone.
        private func expectEverythingFreed(_ weak: Weak, afterwardsRuleFired: LockedValue<Int>, heartbeats: LockedValue<Int>) async throws {
            // Nothing signals a deallocation: the weak references are looked at until they clear.
            let released: [(String, () -> Bool)] = [
                ("the store outlived its work", { weak.store.value == nil }),
                ("dependencies leaked", { weak.dependencies.value == nil }),
                ("bridge leaked", { weak.bridge.value == nil }),
                ("bridge subscription leaked", { weak.heartbeat.value == nil }),
                ("interceptor chain leaked", { weak.probe.value == nil }),
            ]
            for (problem, isReleased) in released {
                #expect((try? await poll("the release, lest \(problem)", timeout: reliabilityTimeout, isReleased)) != nil, "\(problem)")
            }
            // The observer's notification observers are removed: a post dispatches nothing.
            releaseCenter.post(name: .releaseAfterwards, object: nil)
            #expect(afterwardsRuleFired.value == 0)
            // And the heartbeat timer is gone with the bridge.
            let beats = heartbeats.value
            try await Task.sleep(for: .milliseconds(50))
            #expect(heartbeats.value == beats)
        }

        @Test func releasedWhileItsQueueIsBusy_10000PendingItemsAllHandled_thenEverythingDeallocated() async throws {
            let holder = LockedValue<BridgedStore?>(nil)
            let afterwards = LockedValue(0)
            let heartbeats = LockedValue(0)
            let weak = try makeStore(holder: holder, afterwardsRuleFired: afterwards, heartbeats: heartbeats, executor: nil)
            // The heartbeat really reaches the store through the observer while it runs. (No
            // reference to the store is kept here: the holder's must be the only one.)
            try await #require(holder.value).waitUntil("three heartbeats", timeout: reliabilityTimeout) { heartbeats.value >= 3 }

            let entered = LockedList<String>()
            let gate = DispatchSemaphore(value: 0)
            let gatePromise = try #require(holder.value).dispatch(Gate(entered: entered, release: gate))
            #expect((try? await entered.waitForCount(1, timeout: .seconds(60))) != nil, "the gate updater never ran")

            let (ledger, items) = try await dispatchPending(to: holder)
            #expect(ledger.settledCount == 0, "items were handled while the queue was blocked")

            await dropReference(holder, weak: weak)
            gate.signal()
            await #expect(throws: Never.self) { try await gatePromise.settled(timeout: reliabilityTimeout) }

            await expectAllHandled(ledger, items)
            try await expectEverythingFreed(weak, afterwardsRuleFired: afterwards, heartbeats: heartbeats)
        }

        @Test func releasedBeforeItWasReady_10000PendingItemsAllHandledOnceReady_thenEverythingDeallocated() async throws {
            let holder = LockedValue<BridgedStore?>(nil)
            let afterwards = LockedValue(0)
            let heartbeats = LockedValue(0)
            let executor = DeferredExecutor()
            let weak = try makeStore(holder: holder, afterwardsRuleFired: afterwards, heartbeats: heartbeats, executor: executor)
            #expect(holder.value?.isReady == false)

            let (ledger, items) = try await dispatchPending(to: holder)
            #expect(ledger.settledCount == 0, "items were handled before the store was ready")

            await dropReference(holder, weak: weak)
            #expect(ledger.settledCount == 0, "items were handled or dropped before the store was ready")
            // The start-up runs now, for a store that nobody outside holds: it handles what waited.
            executor.runPending()
            await expectAllHandled(ledger, items)
            try await expectEverythingFreed(weak, afterwardsRuleFired: afterwards, heartbeats: heartbeats)
        }
    }
}
