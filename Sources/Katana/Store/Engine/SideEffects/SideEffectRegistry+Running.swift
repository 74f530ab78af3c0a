extension SideEffectRegistry {
    // MARK: - Taking side effects in

    /// The drainer takes a side effect from the inbox (in dispatch order): it gets its entry,
    /// waiting for a worker. With "latest wins", the side effects with the same id taken before it
    /// are cancelled.
    ///
    /// It is refused instead when a cut made for it says it was cancelled on its way here, or a
    /// shutdown cancels what is left.
    mutating func add(_ entry: Entry) -> Added {
        var refusal: Cancellation?
        switch shutdown {
        case .cancelling, .over:
            refusal = .shutdown
        case .none, .counting:
            if !cuts.isEmpty {
                refusal = cuts.first { $0.applies(to: entry) }?.canceller
                // Items come in dispatch order: a cut made before this item's dispatch is done.
                let order = entry.order
                cuts.removeAll { $0.before <= order }
            }
        }
        if let refusal {
            countCancelled(1)
            return Added(token: nil, refusal: refusal, cancelling: [], startsWorker: false)
        }
        var cancelling: [Stop] = []
        if let identity = entry.identity, identity.cancelsInFlight {
            cancelling = cancel(.latestWins) { other, _ in other.identity?.id == identity.id }
        }
        let token = store(entry, phase: .waiting)
        waitingCount += 1
        waitingQueue.append(token)
        let request = askForWorkerIfNeeded()
        return Added(token: token, refusal: nil, cancelling: cancelling, startsWorker: request.startsWorker, startsMonitor: request.startsMonitor)
    }

    // MARK: - Running

    /// A worker is about to start the task of the async side effect it holds. Returns why it was
    /// cancelled meanwhile, if it was: the task is then not started, and the entry is gone.
    mutating func startTask(_ token: Token) -> Cancellation? {
        guard isLive(token) else { return .promise }
        if states[token.slot].cancellation != nil {
            return end(token)
        }
        leaveWorker(token)
        states[token.slot].phase = .task
        onWorkerCount -= 1
        taskCount += 1
        return nil
    }

    /// The side effect's task handle has arrived. Returns the task when it must be cancelled at
    /// once (it was cancelled before its handle was known); nil otherwise, also when the side
    /// effect has ended already.
    mutating func attach(_ task: Task<Void, Never>, to token: Token) -> Task<Void, Never>? {
        guard isLive(token), states[token.slot].phase == .task, let entry = entries[token.slot] else { return nil }
        entry.task = task
        return states[token.slot].cancellation != nil ? task : nil
    }

    /// The worker has started the task of the side effect it took, and takes its next job, in one
    /// step (see ``attach(_:to:)`` and ``finishJobAndTakeNext()``).
    mutating func attach(_ task: Task<Void, Never>, to token: Token, thenTakeNextOn thread: Int32) -> (cancelNow: Task<Void, Never>?, next: Taken?) {
        let cancelNow = attach(task, to: token)
        return (cancelNow, finishJobAndTakeNext(onThread: thread))
    }

    /// Whether the side effect was cancelled since it was taken (its task asks as it starts, so
    /// that a body that begins after a cancellation sees it from its first line).
    func isCancelled(_ token: Token) -> Bool {
        isLive(token) && states[token.slot].cancellation != nil
    }

    /// The side effect's body has ended (or its interceptors kept it from running): its entry
    /// goes. Returns why it was cancelled, if it was: its promise is then rejected with that
    /// error, whatever the body returned.
    @discardableResult
    mutating func end(_ token: Token) -> Cancellation? {
        guard isLive(token) else { return .promise }
        let state = states[token.slot]
        remove(token)
        switch shutdown {
        case .counting, .cancelling:
            if state.isOutsideShutdown {
                break
            } else if state.cancellation != nil {
                counts.cancelled += 1
            } else {
                counts.handled += 1
            }
        case .none, .over:
            break
        }
        return state.cancellation
    }

    /// An async side effect's task has ended (see ``end(_:)``): its promise is about to settle,
    /// and until ``taskSettled()`` the registry is not idle.
    @discardableResult
    mutating func endTask(_ token: Token) -> Cancellation? {
        settlingTasks += 1
        return end(token)
    }

    /// The task a worker was starting ended on the worker's thread before the start returned (its
    /// body did not suspend): its entry goes (see ``end(_:)``), and
    /// the worker takes the next waiting job in the same look, if one waits. The worker holds a
    /// job throughout (the next one, or this one until it has settled its promise and calls
    /// ``finishJobAndTakeNext()``), so a store that looks idle has settled the promise.
    mutating func endTaskOnWorker(_ token: Token, thenTakeNextOn thread: Int32) -> (cancellation: Cancellation?, next: Taken?) {
        let cancellation = end(token)
        guard waitingCount > 0 else { return (cancellation, nil) }
        return (cancellation, finishJobAndTakeNext(onThread: thread))
    }

    /// The promise of a task that ended (see ``endTask(_:)``) has settled.
    mutating func taskSettled() {
        settlingTasks -= 1
    }

    /// The side effect was replaced by an item handled elsewhere (an interceptor passed on a state
    /// updater in its place): its entry goes, uncounted, as the replacement is counted where it
    /// is handled.
    mutating func handOver(_ token: Token) {
        remove(token)
    }

    // MARK: - Storage

    /// Whether the side effect a token names is still there.
    @inline(__always)
    func isLive(_ token: Token) -> Bool {
        let state = states[token.slot]
        return state.generation == token.generation && state.phase != .free
    }

    /// Puts a new side effect in a free slot.
    private mutating func store(_ entry: Entry, phase: Phase) -> Token {
        if let free = freeSlots.popLast() {
            states[free].phase = phase
            entries[free] = entry
            return Token(slot: free, generation: states[free].generation)
        }
        states.append(SlotState(phase: phase))
        entries.append(entry)
        return Token(slot: states.count - 1, generation: 0)
    }

    /// Takes a side effect out, whatever its phase, and frees its slot for the next one.
    mutating func remove(_ token: Token) {
        guard isLive(token) else { return }
        switch states[token.slot].phase {
        case .waiting: waitingCount -= 1
        case .onWorker:
            leaveWorker(token)
            onWorkerCount -= 1
        case .task: taskCount -= 1
        case .free: return
        }
        states[token.slot] = SlotState(generation: states[token.slot].generation &+ 1)
        entries[token.slot] = nil
        freeSlots.append(token.slot)
    }

    /// What cancelling this side effect takes, for the canceller.
    static func stop(_ entry: Entry, _ reason: Cancellation) -> Stop {
        Stop(itemType: entry.itemType, promise: entry.promise, task: entry.task, reason: reason)
    }
}
