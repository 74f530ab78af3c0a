/// A store's listeners, and the delivery of every state change to them: in order, one call at a
/// time, on the listeners' executor, each change's promise settled once every listener has heard
/// it (Katana's order: code in `then`, or after a `wait`, sees what the listeners did).
///
/// A thread about to block while it is the one the listeners' executor runs on (a listener waiting
/// on its own store; a block on a serial listener queue; the main thread with main-queue
/// listeners) keeps the delivery from running, so it announces it first (``listenersWillBlock()``,
/// through `BlockingWait`): until it wakes, promises settle as soon as their change is stored and
/// queued for the listeners, and those already queued settle at once. The listener calls follow in
/// order once the thread is free; they are never nested inside a running listener.
final class ListenerDelivery<S: State>: ListenersBlocking, @unchecked Sendable {
    // @unchecked: `registry` is only reached through its lock; everything else is a constant.

    /// A listener; a class so that delivery can call it through a borrowed reference (see
    /// docs/PERFORMANCE.md, "Updaters: 100 listeners").
    private final class Listener {
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

    private struct Registry {
        var listeners: [Listener] = []
        var nextID: UInt64 = 0
        /// Runs of changes waiting for delivery.
        var pending: [ChangeRun<S>] = []
        /// Runs the delivery has emptied, on their way back to the drainer.
        var spare: [ChangeRun<S>] = []
        var deliveryScheduled = false
        /// Threads blocked while they are the listeners' executor.
        var blockedWaiters = 0
        /// Whether the store was released or shut down: listeners added now are never called.
        var isStopped = false

        var audience: Audience {
            if listeners.contains(where: \.isWaitedFor) {
                return .listeners
            }
            return listeners.isEmpty ? .nobody : .sequences
        }
    }

    private let registry = Locked(Registry())
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
        self.executor = executor
        self.activity = activity
    }

    // MARK: - Listeners

    /// Adds a listener; `audienceChanged` learns the new audience under the registry's lock (so
    /// that concurrent changes reach it in order). Returns the listener's id, for `remove`.
    func add(
        _ call: @escaping @Sendable (S, S) -> Void,
        isWaitedFor: Bool,
        onStop: (@Sendable () -> Void)?,
        audienceChanged: (Audience) -> Void
    ) -> UInt64 {
        let added: (id: UInt64, stopsNow: Bool) = registry.withLock { registry in
            registry.nextID += 1
            guard !registry.isStopped else { return (registry.nextID, true) }
            registry.listeners.append(Listener(id: registry.nextID, call: call, isWaitedFor: isWaitedFor, onStop: onStop))
            audienceChanged(registry.audience)
            return (registry.nextID, false)
        }
        if added.stopsNow {
            // Nothing will ever be delivered: a sequence ends at once.
            onStop?()
        }
        return added.id
    }

    /// Removes the listener with this id (if it is still there).
    func remove(_ id: UInt64, audienceChanged: (Audience) -> Void) {
        registry.withLock { registry in
            registry.listeners.removeAll { $0.id == id }
            audienceChanged(registry.audience)
        }
    }

    /// Drops every listener (the store was released, or shut down) and ends the `stateUpdates`
    /// sequences; listeners added later are never called, and sequences started later end at once.
    /// Changes already queued still settle their promises.
    func stop(audienceChanged: (Audience) -> Void) {
        let finishers = registry.withLock { registry in
            let finishers = registry.listeners.compactMap(\.onStop)
            registry.isStopped = true
            registry.listeners = []
            audienceChanged(registry.audience)
            return finishers
        }
        for finish in finishers {
            finish()
        }
    }

    /// Whether no change is waiting for the listeners and no delivery is running.
    var isIdle: Bool {
        registry.withLock { $0.pending.isEmpty && !$0.deliveryScheduled }
    }

    // MARK: - Delivery

    /// Queues the drainer's runs of changes for the listeners, and hands back emptied runs for reuse.
    func publish(_ runs: [ChangeRun<S>]) -> [ChangeRun<S>] {
        var runs = runs
        var spare: [ChangeRun<S>] = []
        var settleNow: [PromiseHandle] = []
        let schedules: Bool = registry.withLock { registry in
            if registry.blockedWaiters > 0 {
                for index in runs.indices {
                    settleNow.append(contentsOf: runs[index].takePromises())
                }
            }
            registry.pending.append(contentsOf: runs)
            swap(&spare, &registry.spare)
            guard !registry.deliveryScheduled else { return false }
            registry.deliveryScheduled = true
            return true
        }
        runs.removeAll()
        Self.settle(settleNow)
        if schedules {
            executor.executeAsync { self.deliver() }
        }
        return spare
    }

    /// Calls every listener with every queued change, in order, then settles the change's promise;
    /// one delivery runs at a time, so listeners are never called concurrently, even on a
    /// concurrent executor.
    private func deliver() {
        let progress = DeliveryProgress(owner: self)
        let previous = DeliveryProgress.enter(progress)
        defer { DeliveryProgress.leave(restoring: previous) }
        var runs: [ChangeRun<S>] = []
        while true {
            let listeners: [Listener]? = registry.withLock { registry in
                guard !registry.pending.isEmpty else {
                    registry.deliveryScheduled = false
                    return nil
                }
                swap(&runs, &registry.pending)
                return registry.listeners
            }
            guard let listeners else {
                activity.pokeIfWatched()
                return
            }
            // Each call goes through a borrowed reference to its listener, kept alive by
            // `listeners` (docs/PERFORMANCE.md, "Updaters: 100 listeners").
            let borrowed = listeners.map { Unsafe.unretained($0) }
            withExtendedLifetime(listeners) {
                for index in runs.indices {
                    deliver(runs[index], to: borrowed, progress: progress)
                    runs[index].empty()
                }
            }
            registry.withLock { registry in
                let room = max(0, Self.retainedRuns - registry.spare.count)
                registry.spare.append(contentsOf: runs.prefix(room))
            }
            runs.removeAll(keepingCapacity: true)
        }
    }

    private func deliver(_ run: ChangeRun<S>, to listeners: [Unmanaged<Listener>], progress: DeliveryProgress) {
        progress.unsettled = run.promises[...]
        run.states.withUnsafeBufferPointer { states in
            for change in states.indices.dropFirst() {
                // Copied once per change: passed straight from the buffer, each call would copy both.
                let old = states[change - 1]
                let new = states[change]
                for listener in listeners {
                    Unsafe.borrow(listener) { $0.call(old, new) }
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
        let settleNow: [PromiseHandle] = registry.withLock { registry in
            registry.blockedWaiters += 1
            var taken: [PromiseHandle] = []
            for index in registry.pending.indices {
                taken.append(contentsOf: registry.pending[index].takePromises())
            }
            return taken
        }
        Self.settle(settleNow)
    }

    /// The blocked thread woke: promises wait for the listeners again (once no other is blocked).
    func listenersDidUnblock() {
        registry.withLock { $0.blockedWaiters -= 1 }
    }

    private static func settle(_ promises: [PromiseHandle]) {
        for promise in promises {
            promise.settleDone()
        }
    }
}
