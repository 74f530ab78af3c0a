import Katana

/// The state of one store's Swift Flow subscriptions: who is subscribed, the state the subscribers
/// are up to, and, for each subscriber, which thread is calling it and which states wait for that call.
///
/// A value with no lock and no threads. Each event method changes it and returns what the caller must
/// do once it has let go of the lock: make calls (``Delivery``), wait, or nothing.
/// ``SubscriberRegistry`` owns one and calls it under its lock.
///
/// One call at a time per subscriber, in order: the thread that hands a state to an idle subscriber
/// becomes its deliverer, and keeps calling it with the states queued meanwhile until none is left;
/// other threads only queue. A subscriber is never called once it has been unsubscribed: its queue is
/// dropped, and an unsubscriber on another thread than the deliverer waits for the call in progress.
///
/// The table reads a subscriber's weak reference only for the key being subscribed or unsubscribed,
/// whose object is either the caller's (alive: the caller holds it) or dead, so a read under the lock
/// never releases the last reference to a subscriber (whose `deinit` might unsubscribe, and take the lock).
@available(*, deprecated, message: "Part of the Swift Flow store API; use addListener(_:)")
struct SubscriberTable {
    /// Holds a subscriber without keeping it alive.
    final class Box {
        /// Set once, at creation; weak loads are atomic, so any thread may read it.
        private(set) weak var subscriber: (any AnyStoreSubscriber)?

        init(_ subscriber: any AnyStoreSubscriber) {
            self.subscriber = subscriber
        }
    }

    /// One call to make, outside the lock: hand `state` to the subscriber in `box`. The thread that
    /// received it then reports ``SubscriberTable/finished(_:subscriberGone:)``.
    struct Delivery {
        let id: UInt64
        let box: Box
        let state: any State
    }

    /// What ``finished(_:subscriberGone:)`` asks of the deliverer.
    struct Finish {
        /// The next call to make to the same subscriber, if states were queued meanwhile.
        let next: Delivery?
        /// Whether an entry that unsubscribers wait for was removed (wake them).
        let wakesUnsubscribers: Bool
    }

    /// What ``subscribe(_:key:current:caller:)`` asks of the subscribing thread.
    enum SubscribeOutcome {
        /// The object is subscribed already: nothing changes, no call is made.
        case alreadySubscribed
        /// Make these calls (the new subscriber's first state, and, when the store had no state for
        /// earlier subscribers until now, theirs).
        case deliver([Delivery])
    }

    /// What ``unsubscribe(key:caller:)`` asks of the unsubscribing thread.
    enum UnsubscribeOutcome {
        /// Done: no call to the subscriber can start any more, and none is running on another thread.
        case done
        /// Another thread is calling the subscriber: wait until these entries are gone.
        case waitForCalls([UInt64])
    }

    private enum Phase {
        /// Nobody is calling the subscriber: the next state starts a call.
        case idle
        /// `deliverer` is calling the subscriber, and hands it the queued states, in order, before it stops.
        case delivering(by: ThreadIdentity)
        /// Unsubscribed while `deliverer` calls it: the entry goes when that call returns, and
        /// unsubscribers on other threads wait until then.
        case ending(deliverer: ThreadIdentity)
    }

    private struct Entry {
        let id: UInt64
        let key: ObjectIdentifier
        let box: Box
        var phase: Phase
        /// States waiting for the deliverer; empty unless `phase` is `delivering`.
        var queue: [any State] = []

        var isIdle: Bool {
            if case .idle = phase { return true }
            return false
        }

        var isEnding: Bool {
            if case .ending = phase { return true }
            return false
        }
    }

    /// In subscription order, which is the order subscribers are called in for each change.
    private var entries: [Entry] = []
    private var lastID: UInt64 = 0
    /// The state the subscribers are up to: the last new state the store's listener reported, or the
    /// store's state when a subscriber came before any change; nil while neither exists yet (the
    /// store was not ready when its first subscriber came, and has not changed since).
    private var latest: (any State)?

    /// How many subscriptions are registered (including those whose subscriber is gone but has not
    /// been noticed yet, and those ending).
    var count: Int {
        entries.count
    }

    /// Whether any of these entries is still registered.
    func containsAny(of ids: [UInt64]) -> Bool {
        entries.contains { ids.contains($0.id) }
    }

    // MARK: - Events

    /// Registers the subscriber in `box` (whose object has identity `key`) and returns its first
    /// call: with the state the subscribers are up to, or `current` (the store's state, read after
    /// the store's listener was added) when there is none yet.
    mutating func subscribe(
        _ box: Box,
        key: ObjectIdentifier,
        current: (any State)?,
        caller: ThreadIdentity
    ) -> SubscribeOutcome {
        // An idle entry with this key whose object is gone belongs to a dead subscriber whose address
        // the new one reuses.
        entries.removeAll { $0.key == key && $0.isIdle && $0.box.subscriber == nil }
        if entries.contains(where: { $0.key == key && !$0.isEnding && $0.box.subscriber != nil }) {
            return .alreadySubscribed
        }
        var deliveries: [Delivery] = []
        if latest == nil, let current {
            // The store became ready: subscribers that came before get this state first, too.
            latest = current
            for index in entries.indices {
                if let delivery = hand([current], toEntryAt: index, caller: caller) {
                    deliveries.append(delivery)
                }
            }
        }
        lastID += 1
        entries.append(Entry(id: lastID, key: key, box: box, phase: .idle))
        if let latest, let delivery = hand([latest], toEntryAt: entries.count - 1, caller: caller) {
            deliveries.append(delivery)
        }
        return .deliver(deliveries)
    }

    /// The store's listener reported a change: every subscriber gets `new` (preceded by `old` for
    /// subscribers that have had no state yet).
    mutating func publish(old: any State, new: any State, caller: ThreadIdentity) -> [Delivery] {
        let states: [any State] = latest == nil ? [old, new] : [new]
        latest = new
        var deliveries: [Delivery] = []
        for index in entries.indices {
            if let delivery = hand(states, toEntryAt: index, caller: caller) {
                deliveries.append(delivery)
            }
        }
        return deliveries
    }

    /// The deliverer's call for entry `id` returned (or found the subscriber gone).
    mutating func finished(_ id: UInt64, subscriberGone: Bool) -> Finish {
        guard let index = entries.firstIndex(where: { $0.id == id }) else {
            return Finish(next: nil, wakesUnsubscribers: false)
        }
        switch entries[index].phase {
        case .ending:
            // Unsubscribed during the call: this was the last one.
            entries.remove(at: index)
            return Finish(next: nil, wakesUnsubscribers: true)
        case .delivering where subscriberGone:
            // Deallocated without unsubscribing: forget it.
            entries.remove(at: index)
            return Finish(next: nil, wakesUnsubscribers: false)
        case .delivering:
            guard !entries[index].queue.isEmpty else {
                entries[index].phase = .idle
                return Finish(next: nil, wakesUnsubscribers: false)
            }
            let state = entries[index].queue.removeFirst()
            let next = Delivery(id: id, box: entries[index].box, state: state)
            return Finish(next: next, wakesUnsubscribers: false)
        case .idle:
            // Only a deliverer reports, and its entry is not idle; nothing to do.
            return Finish(next: nil, wakesUnsubscribers: false)
        }
    }

    /// Unsubscribes the object with identity `key`: no call to it starts after this.
    mutating func unsubscribe(key: ObjectIdentifier, caller: ThreadIdentity) -> UnsubscribeOutcome {
        var waitFor: [UInt64] = []
        // Every entry with this key goes: the caller's, and any left by a dead object at the same address.
        entries.removeAll { $0.key == key && $0.isIdle }
        for index in entries.indices where entries[index].key == key {
            switch entries[index].phase {
            case .idle:
                break
            case .delivering(let deliverer):
                entries[index].phase = .ending(deliverer: deliverer)
                entries[index].queue.removeAll()
                if deliverer != caller {
                    waitFor.append(entries[index].id)
                }
            case .ending(let deliverer):
                // Unsubscribed already (by another thread) while a call runs: wait for it too,
                // unless the call is the caller's own.
                if deliverer != caller {
                    waitFor.append(entries[index].id)
                }
            }
        }
        return waitFor.isEmpty ? .done : .waitForCalls(waitFor)
    }

    // MARK: - Helpers

    /// Hands `states` to the entry at `index`: starts a call if it is idle (the caller becomes its
    /// deliverer), queues them if a call is running, drops them if it is ending.
    private mutating func hand(_ states: [any State], toEntryAt index: Int, caller: ThreadIdentity) -> Delivery? {
        switch entries[index].phase {
        case .idle:
            guard let first = states.first else { return nil }
            entries[index].phase = .delivering(by: caller)
            entries[index].queue.append(contentsOf: states.dropFirst())
            return Delivery(id: entries[index].id, box: entries[index].box, state: first)
        case .delivering:
            entries[index].queue.append(contentsOf: states)
            return nil
        case .ending:
            return nil
        }
    }
}
