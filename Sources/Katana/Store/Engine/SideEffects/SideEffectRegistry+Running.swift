extension SideEffectRegistry {
    // MARK: - Taking side effects in

    /// The drainer takes a side effect from the inbox (in dispatch order): it gets its entry,
    /// waiting for a worker, or with its task about to start when it has no job. With "latest
    /// wins", the side effects with the same id taken before it are cancelled.
    ///
    /// It is refused instead when a cut made for it says it was cancelled on its way here, or a
    /// shutdown cancels what is left.
    mutating func add(_ addition: Addition) -> Added {
        var refusal: Cancellation?
        switch shutdown {
        case .cancelling, .over:
            refusal = .shutdown
        case .none, .counting:
            if !cuts.isEmpty {
                if cuts.contains(where: { $0.applies(to: addition) }) {
                    refusal = .cancelled
                }
                // Items come in dispatch order: a cut made before this item's dispatch is done.
                cuts.removeAll { $0.before <= addition.order }
            }
        }
        if let refusal {
            countCancelled(1)
            return Added(token: nil, refusal: refusal, cancelling: [], startsWorker: false)
        }
        var cancelling: [Stop] = []
        if let identity = addition.identity, identity.cancelsInFlight {
            cancelling = cancel(.cancelled) { $0.identity?.id == identity.id }
        }
        let phase: Phase = addition.job.map { .waiting($0) } ?? .task(nil)
        let token = store(Entry(
            order: addition.order, itemType: addition.itemType, identity: addition.identity,
            promise: addition.promise, isAsync: addition.isAsync, phase: phase, cancellation: nil
        ))
        guard addition.job != nil else {
            taskCount += 1
            return Added(token: token, refusal: nil, cancelling: cancelling, startsWorker: false)
        }
        waitingCount += 1
        waitingQueue.append(token)
        return Added(token: token, refusal: nil, cancelling: cancelling, startsWorker: askForWorkerIfNeeded())
    }

    // MARK: - Workers

    /// A worker asked for by ``add(_:)`` or ``take()`` has begun: it takes jobs until none waits.
    mutating func workerBegins() {
        startingWorkers -= 1
        idleWorkers += 1
    }

    /// A worker that has begun, or finished its job, takes the oldest waiting side effect; nil
    /// when none waits (the worker then ends). When others still wait and no other worker is free,
    /// the taker is told to ask for one more, so a burst spreads over workers as they free up.
    mutating func take() -> Taken? {
        idleWorkers -= 1
        while nextWaiting < waitingQueue.count {
            let token = waitingQueue[nextWaiting]
            nextWaiting += 1
            guard case .waiting(let job)? = slots[token.slot].entry?.phase, slots[token.slot].generation == token.generation else {
                // Cancelled while it waited.
                continue
            }
            slots[token.slot].entry?.phase = .onWorker
            waitingCount -= 1
            onWorkerCount += 1
            compactWaitingQueue()
            return Taken(token: token, job: job, startsWorker: askForWorkerIfNeeded())
        }
        if waitingQueue.capacity > Self.retainedQueueCapacity {
            waitingQueue = []
        } else {
            waitingQueue.removeAll(keepingCapacity: true)
        }
        nextWaiting = 0
        return nil
    }

    /// A worker finished its job and looks for the next one (see ``take()``).
    mutating func finishJobAndTakeNext() -> Taken? {
        idleWorkers += 1
        return take()
    }

    // MARK: - Running

    /// A worker is about to start the task of the async side effect it holds. Returns why it was
    /// cancelled meanwhile, if it was: the task is then not started, and the entry is gone.
    mutating func startTask(_ token: Token) -> Cancellation? {
        guard let entry = entry(token) else { return .cancelled }
        if entry.cancellation != nil {
            return end(token)
        }
        slots[token.slot].entry?.phase = .task(nil)
        onWorkerCount -= 1
        taskCount += 1
        return nil
    }

    /// The side effect's task handle has arrived. Returns the task when it must be cancelled at
    /// once (it was cancelled before its handle was known); nil otherwise, also when the side
    /// effect has ended already.
    mutating func attach(_ task: Task<Void, Never>, to token: Token) -> Task<Void, Never>? {
        guard let entry = entry(token), case .task(nil) = entry.phase else { return nil }
        slots[token.slot].entry?.phase = .task(task)
        return entry.cancellation != nil ? task : nil
    }

    /// Whether the side effect was cancelled since it was taken (its task asks as it starts, so
    /// that a body that begins after a cancellation sees it from its first line).
    func isCancelled(_ token: Token) -> Bool {
        entry(token)?.cancellation != nil
    }

    /// The side effect's body has ended (or its interceptors kept it from running): its entry
    /// goes. Returns why it was cancelled, if it was: its promise is then rejected with that
    /// error, whatever the body returned.
    @discardableResult
    mutating func end(_ token: Token) -> Cancellation? {
        guard let entry = entry(token) else { return .cancelled }
        remove(token)
        switch shutdown {
        case .counting, .cancelling:
            if entry.cancellation != nil {
                counts.cancelled += 1
            } else {
                counts.handled += 1
            }
        case .none, .over:
            break
        }
        return entry.cancellation
    }

    /// The side effect was replaced by an item handled elsewhere (an interceptor passed on a state
    /// updater in its place): its entry goes, uncounted, as the replacement is counted where it
    /// is handled.
    mutating func handOver(_ token: Token) {
        if entry(token) != nil {
            remove(token)
        }
    }

    // MARK: - Storage

    /// The entry a token names, if it is still there.
    func entry(_ token: Token) -> Entry? {
        let slot = slots[token.slot]
        return slot.generation == token.generation ? slot.entry : nil
    }

    /// Puts a new entry in a free slot.
    private mutating func store(_ entry: Entry) -> Token {
        if let free = freeSlots.popLast() {
            slots[free].entry = entry
            return Token(slot: free, generation: slots[free].generation)
        }
        slots.append(Slot(generation: 0, entry: entry))
        return Token(slot: slots.count - 1, generation: 0)
    }

    /// Takes an entry out, whatever its phase, and frees its slot for the next one.
    mutating func remove(_ token: Token) {
        guard let entry = entry(token) else { return }
        switch entry.phase {
        case .waiting: waitingCount -= 1
        case .onWorker: onWorkerCount -= 1
        case .task: taskCount -= 1
        }
        slots[token.slot].entry = nil
        slots[token.slot].generation &+= 1
        freeSlots.append(token.slot)
    }

    /// Asks for a worker when a job waits and none of the store's workers is free to take it.
    private mutating func askForWorkerIfNeeded() -> Bool {
        guard waitingCount > 0, idleWorkers + startingWorkers == 0 else { return false }
        startingWorkers += 1
        return true
    }

    private mutating func compactWaitingQueue() {
        if nextWaiting >= Self.compactionThreshold, nextWaiting * 2 >= waitingQueue.count {
            // A steady stream never empties the queue: drop the tokens already taken.
            waitingQueue.removeFirst(nextWaiting)
            nextWaiting = 0
        }
    }
}
