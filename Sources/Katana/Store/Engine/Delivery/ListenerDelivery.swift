/// A store's listeners, and the delivery of every state change to them: in order, one call at a
/// time, on the listeners' executor, each change's promise settled once every listener has heard
/// it (Katana's order: code in `then`, or after a `wait`, sees what the listeners did).
///
/// The life-cycle (who listens, what waits, whether a delivery is under way, whether it stopped)
/// is a ``DeliveryStateMachine`` behind one lock; this class takes the lock, passes each event to
/// the machine, and carries out what the machine returns once it has let the lock go: no listener,
/// promise callback, `onStop` or executor is ever called under the lock.
///
/// A thread about to block while it is the one the listeners' executor runs on (a listener waiting
/// on its own store; a block on a serial listener queue; the main thread with main-queue
/// listeners) keeps the delivery from running, so it announces it first (``listenersWillBlock()``,
/// through `BlockingWait`): until it wakes, promises settle as soon as their change is stored and
/// queued for the listeners, and those already queued settle at once. The listener calls follow in
/// order once the thread is free; they are never nested inside a running listener.
final class ListenerDelivery<S: State>: ListenersBlocking, @unchecked Sendable {
    // @unchecked: `machine` is only reached through its lock; everything else is a constant.

    /// A listener; a class so that delivery can call it through a borrowed reference (see
    /// docs/PERFORMANCE.md, "Updaters: 100 listeners").
    private final class Listener: DeliveryListener {
        let id: UInt64
        let call: @Sendable (S, S) -> Void
        /// Whether promises wait for this listener (false for `stateUpdates` sequences).
        let isWaitedFor: Bool
        let onStop: (@Sendable () -> Void)?

        init(id: UInt64, call: @escaping @Sendable (S, S) -> Void, isWaitedFor: Bool, onStop: (@Sendable () -> Void)?) {
            self.id = id
            self.call = call
            self.isWaitedFor = isWaitedFor
            self.onStop = onStop
        }
    }

    /// The delivery's life-cycle; the lock is taken before the inbox's (the audience goes to the
    /// inbox under it), never after.
    private let machine: Locked<DeliveryStateMachine<Listener, ChangeRun<S>>>
    private let executor: any Executor
    /// Poked when the delivery runs out of changes to deliver.
    private let activity: ActivitySignal

    /// How many emptied runs are kept for reuse, on each side (the drainer's and the delivery's): as
    /// many as fit in 256 KiB of states, from 2 to 16, so a large state does not keep megabytes
    /// of buffers after a burst.
    static var retainedRuns: Int {
        let runBytes = (StateChangeLog<S>.runLength + 1) * max(1, MemoryLayout<S>.stride)
        return min(16, max(2, 256 * 1024 / runBytes))
    }

    /// A delivery that calls listeners on `executor`, and pokes `activity` when it runs out of work.
    init(executor: any Executor, activity: ActivitySignal) {
        self.machine = Locked(DeliveryStateMachine(retainedRuns: Self.retainedRuns))
        self.executor = executor
        self.activity = activity
    }

    // MARK: - Listeners

    /// Adds a listener; `audienceChanged` learns the new audience under the delivery's lock (so
    /// that concurrent changes reach it in order). Returns the listener's id, for `remove`.
    func add(
        _ call: @escaping @Sendable (S, S) -> Void,
        isWaitedFor: Bool,
        onStop: (@Sendable () -> Void)?,
        audienceChanged: (Audience) -> Void
    ) -> UInt64 {
        let added = machine.withLock { machine in
            let added = machine.add { id in Listener(id: id, call: call, isWaitedFor: isWaitedFor, onStop: onStop) }
            if case .listening(let audience) = added.action {
                audienceChanged(audience)
            }
            return added
        }
        if case .finishAtOnce(let listener) = added.action {
            listener.onStop?()
        }
        return added.id
    }

    /// Removes the listener with this id (if it is still there).
    func remove(_ id: UInt64, audienceChanged: (Audience) -> Void) {
        // The listener removed comes back out of the lock and is let go here, after it.
        _ = machine.withLock { machine in
            let removal = machine.remove(id)
            audienceChanged(removal.audience)
            return removal.removed
        }
    }

    /// Drops every listener (the store was released, or shut down) and ends the `stateUpdates`
    /// sequences; listeners added later are never called, and sequences started later end at once.
    /// The changes still waiting for the listeners are never delivered: their promises are
    /// fulfilled before this returns (the updates were applied), so none is fulfilled after a
    /// shutdown. The runs a delivery has already taken (a listener may be running with them) are
    /// the exception: their promises settle as that delivery goes on, and it delivers nothing after.
    func stop(audienceChanged: (Audience) -> Void) {
        let stop = machine.withLock { machine in
            let stop = machine.stop()
            audienceChanged(stop.audience)
            return stop
        }
        // Sequences end first, so that code after a promise finds them ended.
        for listener in stop.stopped {
            listener.onStop?()
        }
        Self.settle(stop.settleNow)
        // `stop.discarded`, the runs no listener will hear, is let go here, outside the lock.
    }

    /// Whether no change is waiting for the listeners and no delivery is running.
    var isIdle: Bool {
        machine.withLock(\.isIdle)
    }

    // MARK: - Delivery

    /// Queues the drainer's runs of changes for the listeners, and hands back emptied runs for reuse.
    /// The store `owner` gives is held until the listeners have heard them.
    func publish(_ runs: [ChangeRun<S>], owner: () -> AnyObject?) -> [ChangeRun<S>] {
        var runs = runs
        let action = machine.withLock { $0.publish(&runs, owner: owner) }
        // Dropped outside the lock: once stopped, these were the last references to the runs.
        runs.removeAll()
        Self.settle(action.settleNow)
        if action.schedulesDelivery {
            executor.executeAsync { self.deliver() }
        }
        return action.spare
    }

    /// Queues the ready store's call of its listeners with `initial` as both states (Katana 3.x;
    /// see ``Store/Configuration/callsListenersWhenReady``), ahead of every change.
    func publishReadyCall(with initial: S, owner: () -> AnyObject?) {
        var call = ChangeRun(states: [initial, initial], promises: [nil])
        call.isReadyCall = true
        _ = publish([call], owner: owner)
    }

    /// Calls every listener with every queued change, in order, then settles the change's promise;
    /// the machine lets one delivery run at a time, so listeners are never called concurrently,
    /// even on a concurrent executor.
    private func deliver() {
        let progress = DeliveryProgress(owner: self)
        let previous = DeliveryProgress.enter(progress)
        defer { DeliveryProgress.leave(restoring: previous) }
        var runs: [ChangeRun<S>] = []
        while true {
            let (next, heldStore) = machine.withLock { machine in
                let next = machine.nextRuns(swappingWith: &runs)
                return (next, machine.releaseOwnerIfIdle())
            }
            switch next {
            case .finish:
                activity.pokeIfWatched()
                // The store the delivery held goes last: when nothing else holds it, it is
                // released here (this closure's reference keeps the delivery itself alive).
                withExtendedLifetime(heldStore) {}
                return
            case .deliver(let listeners):
                // Each call goes through a borrowed reference to its listener, kept alive by
                // `listeners` (docs/PERFORMANCE.md, "Updaters: 100 listeners").
                let borrowed = listeners.map { Unsafe.unretained($0) }
                withExtendedLifetime(listeners) {
                    for index in runs.indices {
                        deliver(runs[index], to: borrowed, progress: progress)
                        runs[index].empty()
                    }
                }
                machine.withLock { $0.recycle(runs) }
                runs.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The ready call goes to the listeners promises wait for (`addListener`), not to sequences.
    private func callWaitedFor(_ listeners: [Unmanaged<Listener>], _ old: S, _ new: S) {
        for listener in listeners {
            Unsafe.borrow(listener) { listener in
                if listener.isWaitedFor {
                    listener.call(old, new)
                }
            }
        }
    }

    private func deliver(_ run: ChangeRun<S>, to listeners: [Unmanaged<Listener>], progress: DeliveryProgress) {
        progress.unsettled = run.promises[...]
        run.states.withUnsafeBufferPointer { states in
            for change in states.indices.dropFirst() {
                // Copied once per change: passed straight from the buffer, each call would copy both.
                let old = states[change - 1]
                let new = states[change]
                if run.isReadyCall {
                    callWaitedFor(listeners, old, new)
                } else {
                    for listener in listeners {
                        Unsafe.borrow(listener) { $0.call(old, new) }
                    }
                }
                if let promise = progress.unsettled.popFirst() ?? nil {
                    promise.settleDone()
                }
            }
        }
    }

    // MARK: - Blocking

    /// A thread the delivery needs is about to block: settle every queued promise now, and settle
    /// later ones as soon as their change is queued, until ``listenersDidUnblock()``.
    func listenersWillBlock() {
        Self.settle(machine.withLock { $0.listenersWillBlock() })
    }

    /// The blocked thread woke: promises wait for the listeners again (once no other is blocked).
    func listenersDidUnblock() {
        machine.withLock { $0.listenersDidUnblock() }
    }

    private static func settle(_ promises: [PromiseHandle]) {
        for promise in promises {
            promise.settleDone()
        }
    }
}
