extension SideEffectRegistry {
    // MARK: - Workers

    /// A worker asked for by ``add(_:)`` or ``take()`` has begun: it takes jobs until none waits.
    mutating func workerBegins() {
        startingWorkers -= 1
        idleWorkers += 1
    }

    /// A worker on thread `thread` that has begun, or finished its job, takes the oldest waiting side effect; nil
    /// when none waits (the worker then ends). When others still wait and no other worker is free,
    /// the taker is told to ask for one more, so a burst spreads over workers as they free up.
    mutating func take(onThread thread: Int32 = 0) -> Taken? {
        idleWorkers -= 1
        while nextWaiting < waitingQueue.count {
            let token = waitingQueue[nextWaiting]
            nextWaiting += 1
            // A token whose side effect was cancelled while it waited names nothing waiting now.
            guard isLive(token), states[token.slot].phase == .waiting, let entry = entries[token.slot] else { continue }
            waitingCount -= 1
            if entry.startsTaskWhenTaken {
                states[token.slot].phase = .task
                taskCount += 1
            } else {
                states[token.slot].phase = .onWorker
                states[token.slot].takenAtTick = tick
                states[token.slot].workerThread = thread
                onWorkerCount += 1
            }
            busyWorkers += 1
            compactWaitingQueue()
            let request = askForWorkerIfNeeded()
            return Taken(token: token, entry: entry, startsWorker: request.startsWorker, startsMonitor: request.startsMonitor)
        }
        if waitingQueue.capacity > Self.retainedQueueCapacity {
            waitingQueue = []
        } else {
            waitingQueue.removeAll(keepingCapacity: true)
        }
        nextWaiting = 0
        return nil
    }

    /// A worker finished its job (its promise settled, or its task started) and looks for the
    /// next one (see ``take()``).
    mutating func finishJobAndTakeNext(onThread thread: Int32 = 0) -> Taken? {
        busyWorkers -= 1
        idleWorkers += 1
        return take(onThread: thread)
    }

    // MARK: - Width and stalls

    /// The monitor ticks (every half millisecond, while jobs wait at the width limit): jobs taken
    /// before the previous tick that are still on their worker, whose thread `isAsleep` says is blocked
    /// (or cannot tell: nil), have stalled and stop counting against ``width``, so workers start
    /// for the jobs waiting behind them. A job whose thread runs (or waits for a core) keeps its
    /// place: more workers would only share the same cores.
    mutating func monitorTick(isAsleep: (_ thread: Int32) -> Bool?) -> Tick {
        tick &+= 1
        for index in states.indices where states[index].phase == .onWorker && !states[index].isStalled {
            guard tick &- states[index].takenAtTick >= 1, isAsleep(states[index].workerThread) ?? true else { continue }
            states[index].isStalled = true
            stalledCount += 1
        }
        var starts = 0
        while waitingCount > startingWorkers + idleWorkers, hasRoomForWorker {
            startingWorkers += 1
            starts += 1
        }
        let keepsTicking = waitingCount > startingWorkers + idleWorkers
        isMonitoring = keepsTicking
        return Tick(startsWorkers: starts, keepsTicking: keepsTicking)
    }

    /// Whether one more worker stays within ``width``: the jobs on workers that have not stalled,
    /// and the workers on their way to a job, are fewer.
    private var hasRoomForWorker: Bool {
        onWorkerCount - stalledCount + startingWorkers + idleWorkers < width
    }

    /// A job leaves its worker (it ended, or its task started): a stalled one no longer counts.
    mutating func leaveWorker(_ token: Token) {
        if states[token.slot].isStalled {
            states[token.slot].isStalled = false
            stalledCount -= 1
        }
    }

    /// Asks for a worker when a job waits, none of the store's workers is free to take it, and
    /// the width leaves room; at the limit, asks for the monitor instead (if it is not ticking).
    mutating func askForWorkerIfNeeded() -> (startsWorker: Bool, startsMonitor: Bool) {
        guard waitingCount > 0, idleWorkers + startingWorkers == 0 else { return (false, false) }
        guard hasRoomForWorker else {
            guard !isMonitoring else { return (false, false) }
            isMonitoring = true
            return (false, true)
        }
        startingWorkers += 1
        return (true, false)
    }

    private mutating func compactWaitingQueue() {
        if nextWaiting >= Self.compactionThreshold, nextWaiting * 2 >= waitingQueue.count {
            // A steady stream never empties the queue: drop the tokens already taken.
            waitingQueue.removeFirst(nextWaiting)
            nextWaiting = 0
        }
    }
}
