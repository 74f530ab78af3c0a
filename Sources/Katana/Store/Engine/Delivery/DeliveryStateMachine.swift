/// The life-cycle of a store's listener delivery: the listeners, the runs of changes waiting for
/// them, and whether a delivery is under way.
///
/// A plain value, so every transition is tested without threads (`DeliveryStateMachineTests`).
/// ``ListenerDelivery`` keeps one behind its lock; each method is one event: it moves the machine
/// to its next phase and returns what the delivery must do once it has released the lock.
///
///     idle ─publish─▶ delivering ─nextRuns finds none left─▶ idle
///     delivering ─publish─▶ delivering (the runs wait for the delivery under way)
///     stop: idle ─▶ stopped;  delivering ─▶ deliveringThenStop ─nextRuns─▶ stopped
///
/// One delivery at a time: only a publish to an idle machine schedules one, and only that
/// delivery, by finding nothing left, makes the machine idle again. So listeners are never called
/// concurrently, even on a concurrent executor, and they hear the changes in the order published.
///
/// Beside the phase, a count of blocked waiters (threads the delivery needs, blocked in a `wait`)
/// decides when promises settle: normally once every listener has heard their change (the
/// delivery settles them); while a waiter is blocked, as soon as their change is queued, since the
/// delivery cannot go on before that thread is free.
struct DeliveryStateMachine<Listener: DeliveryListener, Run: DeliveryRun> {
    /// Where the delivery is in its life.
    enum Phase: Equatable {
        /// No change waits for the listeners and no delivery is scheduled or running.
        case idle
        /// A delivery block is on the listeners' executor or running there; runs published now
        /// wait for it.
        case delivering
        /// Stopped while a delivery was under way: that delivery finishes the runs it has taken
        /// (their listener calls and promises go on as before), then ends.
        case deliveringThenStop
        /// The store was released or shut down: no listener is called any more.
        case stopped
    }

    /// What ``ListenerDelivery`` does after a listener is added.
    enum AddAction {
        /// It listens: tell the inbox the new audience, still under the lock, so that concurrent
        /// changes to the audience reach the inbox in the order they were made.
        case listening(Audience)
        /// The delivery has stopped: the listener will never be called, so its `onStop` runs at
        /// once (a `stateUpdates` sequence started now ends instead of waiting forever).
        case finishAtOnce(Listener)
    }

    /// What ``ListenerDelivery`` does after runs of changes are published.
    struct PublishAction {
        /// Put a delivery block on the listeners' executor: the machine was idle, so none was
        /// under way (at most one is, so listeners are never called concurrently).
        var schedulesDelivery: Bool
        /// Fulfil these now: a waiter the delivery needs is blocked, or the delivery has stopped,
        /// so no listener call comes first that they could wait for.
        var settleNow: [Run.Promise]
        /// Emptied runs, back to the drainer for its next changes.
        var spare: [Run]
    }

    /// What the delivery does when it is ready for more changes.
    enum NextDelivery {
        /// Call these listeners with every change of the runs now in the caller's buffer, in
        /// order, settling each change's promise after it; then empty the runs, ``recycle(_:)``
        /// them, and ask again.
        case deliver([Listener])
        /// Nothing is left: the delivery ends (the next publish schedules another), and the
        /// activity signal is poked, so that whoever waits for the store to go quiet looks again.
        case finish
    }

    /// What ``ListenerDelivery`` does when the store is released or shut down.
    struct StopAction {
        /// Tell the inbox (under the lock, as for ``AddAction/listening(_:)``): nobody listens now.
        var audience: Audience
        /// The listeners dropped: run their `onStop` (their `stateUpdates` sequences end).
        var stopped: [Listener]
        /// Fulfil these now: their changes were applied, and no listener will hear them any more,
        /// so nothing is left to wait for (and once a shutdown returns, no promise may be fulfilled).
        var settleNow: [Run.Promise]
        /// The runs no listener will hear: let go outside the lock, since their states may hold
        /// anything, whose release could run any code.
        var discarded: [Run]
    }

    private(set) var phase = Phase.idle
    /// The listeners, in the order added; a delivery takes a copy of the array each time it asks
    /// for more changes, so a listener added or removed meanwhile counts from the next changes on.
    private(set) var listeners: [Listener] = []
    /// Runs of changes waiting for the delivery, in order; only ever non-empty while `delivering`.
    private var pending: [Run] = []
    /// Runs the delivery has emptied, on their way back to the drainer for reuse.
    private var spare: [Run] = []
    /// The id the last listener added got.
    private var lastID: UInt64 = 0
    /// Threads blocked in a `wait` while the delivery needs them. A count, not a phase: several
    /// threads (or nested waits on one) may block at once, whether or not a delivery is under way,
    /// and promises wait for the listeners again only once the last of them has woken; a phase
    /// would need a blocked variant of both `idle` and `delivering` and still have to count.
    private(set) var blockedWaiters = 0
    /// How many emptied runs are kept for the drainer (see ``ListenerDelivery/retainedRuns``).
    let retainedRuns: Int
    /// The store, held from the publish that starts a delivery until that delivery finds nothing
    /// left, so that the listeners hear every change even once the store's last outside reference
    /// has gone (docs/Architecture.md, "Lifetimes"; see DeliveryStateMachine+Owner.swift).
    /// (Internal rather than private(set) only for that extension.)
    var keptAlive: AnyObject?

    /// A machine with no listeners and nothing to deliver, keeping at most `retainedRuns` emptied runs.
    init(retainedRuns: Int) {
        self.retainedRuns = retainedRuns
    }

    /// Who hears about the store's changes now.
    var audience: Audience {
        if listeners.contains(where: { $0.isWaitedFor }) {
            return .listeners
        }
        return listeners.isEmpty ? .nobody : .sequences
    }

    /// Whether no change waits for the listeners and no delivery is scheduled or running.
    var isIdle: Bool {
        switch phase {
        case .idle, .stopped:
            return true
        case .delivering, .deliveringThenStop:
            return false
        }
    }

    /// How many runs wait for the delivery.
    var pendingCount: Int {
        pending.count
    }

    // MARK: - Listeners

    /// A listener is added; `makeListener` makes it with the id it gets (which ``remove(_:)``
    /// goes by). Returns the id, and what to do.
    mutating func add(_ makeListener: (UInt64) -> Listener) -> (id: UInt64, action: AddAction) {
        lastID += 1
        let listener = makeListener(lastID)
        switch phase {
        case .idle, .delivering:
            listeners.append(listener)
            return (lastID, .listening(audience))
        case .deliveringThenStop, .stopped:
            return (lastID, .finishAtOnce(listener))
        }
    }

    /// The listener with this id is removed (if it is still there). Returns the audience for the
    /// inbox, and the listener, to let go of outside the lock (its closure may hold anything,
    /// whose release could run any code).
    mutating func remove(_ id: UInt64) -> (audience: Audience, removed: Listener?) {
        guard let index = listeners.firstIndex(where: { $0.id == id }) else {
            return (audience, nil)
        }
        let removed = listeners.remove(at: index)
        return (audience, removed)
    }

    // MARK: - Delivery

    /// The drainer publishes runs of changes. While the delivery goes on they are queued for it
    /// (the caller's `runs` still refer to them; drop them outside the lock), with their promises
    /// taken out to settle now if a waiter is blocked; once stopped, only their promises are taken.
    /// A publish that starts a delivery holds the store `owner` gives until that delivery ends.
    mutating func publish(_ runs: inout [Run], owner: () -> AnyObject? = { nil }) -> PublishAction {
        var action = PublishAction(schedulesDelivery: false, settleNow: [], spare: [])
        swap(&action.spare, &spare)
        switch phase {
        case .idle, .delivering:
            if blockedWaiters > 0 {
                Self.takePromises(of: &runs, into: &action.settleNow)
            }
            pending.append(contentsOf: runs)
            if phase == .idle {
                phase = .delivering
                action.schedulesDelivery = true
                keptAlive = owner()
            }
        case .deliveringThenStop, .stopped:
            // No listener hears these changes: their promises have nothing to wait for.
            Self.takePromises(of: &runs, into: &action.settleNow)
        }
        return action
    }

    /// The delivery asks for more changes: the waiting runs are swapped into `runs` (which must be
    /// empty), with the listeners to call; or, when none is left, the delivery ends (and the store
    /// it held is handed back with ``releaseOwnerIfIdle()``).
    mutating func nextRuns(swappingWith runs: inout [Run]) -> NextDelivery {
        switch phase {
        case .delivering:
            guard !pending.isEmpty else {
                phase = .idle
                return .finish
            }
            swap(&runs, &pending)
            return .deliver(listeners)
        case .deliveringThenStop:
            // Stopping took what was waiting: nothing is left for this delivery.
            phase = .stopped
            return .finish
        case .idle, .stopped:
            // No delivery is under way in these phases: a stray block has nothing to do.
            return .finish
        }
    }

    /// The delivery has emptied these runs: up to ``retainedRuns`` are kept for the drainer (the
    /// caller lets go of the others outside the lock).
    mutating func recycle(_ runs: [Run]) {
        let room = max(0, retainedRuns - spare.count)
        spare.append(contentsOf: runs.prefix(room))
    }

    // MARK: - Blocking

    /// A thread the delivery needs is about to block: the promises of the queued runs are handed
    /// back to settle now, and later ones settle as soon as they are queued, until
    /// ``listenersDidUnblock()``.
    mutating func listenersWillBlock() -> [Run.Promise] {
        blockedWaiters += 1
        var settleNow: [Run.Promise] = []
        Self.takePromises(of: &pending, into: &settleNow)
        return settleNow
    }

    /// That thread woke: promises wait for the listeners again once no other waiter is blocked.
    mutating func listenersDidUnblock() {
        assert(blockedWaiters > 0, "a waiter woke that never blocked")
        blockedWaiters -= 1
    }

    // MARK: - Stop

    /// The store was released or shut down: the listeners are dropped, and the runs still waiting
    /// are discarded, their promises handed back to settle now. The runs a delivery has already
    /// taken (a listener may be running with them) keep their promises: they settle as that
    /// delivery goes on, and it ends after them. Listeners added from now on are never called.
    mutating func stop() -> StopAction {
        var action = StopAction(audience: .nobody, stopped: [], settleNow: [], discarded: [])
        swap(&action.stopped, &listeners)
        Self.takePromises(of: &pending, into: &action.settleNow)
        swap(&action.discarded, &pending)
        switch phase {
        case .idle:
            phase = .stopped
        case .delivering:
            phase = .deliveringThenStop
        case .deliveringThenStop, .stopped:
            break
        }
        action.audience = audience
        return action
    }

    private static func takePromises(of runs: inout [Run], into taken: inout [Run.Promise]) {
        for index in runs.indices {
            taken.append(contentsOf: runs[index].takePromises())
        }
    }
}

/// What ``DeliveryStateMachine`` needs to know of a listener.
protocol DeliveryListener {
    /// The number the machine gave it when it was added, which removing it goes by.
    var id: UInt64 { get }
    /// Whether updater promises wait for it (false for `stateUpdates` sequences).
    var isWaitedFor: Bool { get }
}

/// What ``DeliveryStateMachine`` needs of a run of changes.
protocol DeliveryRun {
    /// What one of the run's changes settles once every listener has heard it.
    associatedtype Promise
    /// Takes the promises still to settle out of the run; its changes stay for the listeners.
    mutating func takePromises() -> [Promise]
}

/// The engine's runs of changes, settling the dispatch promises of their updaters.
extension ChangeRun: DeliveryRun {}
