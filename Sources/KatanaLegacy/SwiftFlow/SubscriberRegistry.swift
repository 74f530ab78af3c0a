import Foundation
import Katana

/// One store's Swift Flow subscribers, fed by a single listener of that store.
///
/// The registry is created by the first `subscribe` to a store; it adds one listener to the store
/// (so the store keeps it alive, and it goes away with the store) and hands each change to every
/// subscriber. A subscriber that comes later starts from the state the listener last reported, then
/// gets exactly the changes after it: no state twice, none missed. Until the listener has reported
/// a change, the starting state is the store's state read just after the listener was added; changes
/// that were then still queued for the store's listeners reach the listener too, so the first
/// subscribers may see them after a starting state that already includes them (the public listener
/// API cannot tell them apart).
///
/// Threads: a subscriber is called by whichever thread finds it idle — the store's listener executor
/// for changes, the subscribing thread (inside `subscribe`) for its first state and for any change that
/// arrives while that first call runs. Calls to one subscriber never overlap and keep their order.
/// The logic lives in ``SubscriberTable``; this class takes the lock around it and makes the calls
/// outside the lock.
@available(*, deprecated, message: "Part of the Swift Flow store API; use addListener(_:)") final class SubscriberRegistry: @unchecked Sendable {
    // @unchecked: `table` is only touched while holding `condition` (an NSCondition is a lock); `owner`
    // is a weak reference set once, in init, and weak loads are atomic.

    /// The lock, and the condition unsubscribers wait on for a running call to return.
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var table = SubscriberTable()
    /// The store this registry serves; the directory checks it to tell a store from a later one at the
    /// same address.
    private(set) weak var owner: AnyObject?

    init(owner: AnyObject) {
        self.owner = owner
    }

    /// How many subscriptions are registered.
    var count: Int {
        locked { $0.count }
    }

    /// Registers `subscriber` and calls it, on this thread, with its first state (see
    /// ``SubscriberTable/subscribe(_:key:current:caller:)``); does nothing if it is subscribed already.
    func subscribe(_ subscriber: any AnyStoreSubscriber, current: (any State)?) {
        let box = SubscriberTable.Box(subscriber)
        let key = ObjectIdentifier(subscriber)
        let caller = ThreadIdentity.current
        let outcome = locked { $0.subscribe(box, key: key, current: current, caller: caller) }
        if case .deliver(let deliveries) = outcome {
            run(deliveries)
        }
    }

    /// Unsubscribes `subscriber`; when this returns, it is not being called (unless by this very
    /// thread, from inside its own `newState`) and will not be called again.
    func unsubscribe(_ subscriber: any AnyStoreSubscriber) {
        let key = ObjectIdentifier(subscriber)
        let caller = ThreadIdentity.current
        condition.lock()
        defer { condition.unlock() }
        if case .waitForCalls(let ids) = table.unsubscribe(key: key, caller: caller) {
            while table.containsAny(of: ids) {
                condition.wait()
            }
        }
    }

    /// The store's listener: hands the change to every subscriber, on the listener's thread.
    func publish(old: any State, new: any State) {
        let caller = ThreadIdentity.current
        let deliveries = locked { $0.publish(old: old, new: new, caller: caller) }
        run(deliveries)
    }

    // MARK: - Calls

    /// Makes each call, and then the calls queued for the same subscriber meanwhile, until none is left.
    private func run(_ deliveries: [SubscriberTable.Delivery]) {
        for first in deliveries {
            var next: SubscriberTable.Delivery? = first
            while let delivery = next {
                let delivered = Self.call(delivery)
                next = locked { table in
                    let finish = table.finished(delivery.id, subscriberGone: !delivered)
                    if finish.wakesUnsubscribers {
                        condition.broadcast()
                    }
                    return finish.next
                }
            }
        }
    }

    /// Calls the subscriber if it still exists. A function of its own so that the strong reference it
    /// takes is released before the lock is taken again: that release may run the subscriber's
    /// `deinit`, which may unsubscribe.
    private static func call(_ delivery: SubscriberTable.Delivery) -> Bool {
        guard let subscriber = delivery.box.subscriber else {
            return false
        }
        subscriber._newState(state: delivery.state)
        return true
    }

    private func locked<Result>(_ body: (inout SubscriberTable) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body(&table)
    }
}
