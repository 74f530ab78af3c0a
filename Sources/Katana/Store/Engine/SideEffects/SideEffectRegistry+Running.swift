extension SideEffectRegistry {
    // MARK: - Taking side effects in

    /// The drainer takes a side effect from the inbox (in dispatch order): it gets a slot, waiting
    /// for a worker. With "latest wins", the side effects with the same id taken before it are
    /// cancelled.
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
        let token = store(entry)
        phases.waiting += 1
        waitingQueue.append(token)
        let request = demand.jobsWait(phases.waiting)
        return Added(token: token, refusal: nil, cancelling: cancelling, startsWorker: request.startsWorker, startsMonitor: request.startsMonitor)
    }

    // MARK: - Running

    /// A worker is about to start the task of the async side effect it holds, whose interceptors
    /// have run. Returns why it was cancelled meanwhile, if it was: the task is then not started,
    /// and the slot is free. Otherwise the side effect stays on its worker until its task's
    /// handle arrives (``attach(_:to:)``): its body runs there until it first suspends.
    mutating func startTask(_ token: Token) -> Cancellation? {
        guard isLive(token) else { return .promise }
        return entry(at: token.slot)?.cancellation != nil ? end(token) : nil
    }

    /// The side effect's task handle has arrived: it leaves its worker and is a task. Returns the
    /// task when it must be cancelled at once (it was cancelled before its handle was known); nil
    /// otherwise, also when the side effect has ended already.
    mutating func attach(_ task: Task<Void, Never>, to token: Token) -> Task<Void, Never>? {
        guard isLive(token), case .onWorker = slots[token.slot].phase,
              case .onWorker(let entry, let worker) = takePhase(of: token.slot) else { return nil }
        leftWorker(worker)
        phases.task += 1
        slots[token.slot].phase = .task(entry, task)
        return entry.cancellation != nil ? task : nil
    }

    /// The worker has started the task of the side effect it took, and takes its next job, in one
    /// step (see ``attach(_:to:)`` and ``finishJobAndTakeNext(onThread:)``).
    mutating func attach(_ task: Task<Void, Never>, to token: Token, thenTakeNextOn thread: Int32) -> (cancelNow: Task<Void, Never>?, next: Taken?) {
        let cancelNow = attach(task, to: token)
        return (cancelNow, finishJobAndTakeNext(onThread: thread))
    }

    /// The side effect's body has ended (or its interceptors kept it from running): its slot is
    /// freed. Returns why it was cancelled, if it was: its promise is then rejected with that
    /// error, whatever the body returned.
    @discardableResult
    mutating func end(_ token: Token) -> Cancellation? {
        // Only a cancellation frees a taken side effect's slot before its end: the token is then
        // stale, and the side effect was cancelled.
        guard slots[token.slot].generation == token.generation else { return .promise }
        let isOutsideShutdown = slots[token.slot].isOutsideShutdown
        guard let cancellation = remove(at: token.slot) else { return .promise }
        switch shutdown {
        case .counting, .cancelling:
            if isOutsideShutdown {
                break
            } else if cancellation != nil {
                shutdownCounts.cancelled += 1
            } else {
                shutdownCounts.handled += 1
            }
        case .none, .over:
            break
        }
        return cancellation
    }

    /// An async side effect's task has ended (see ``end(_:)``): its promise is about to settle,
    /// and until ``taskSettled()`` the registry is not idle.
    @discardableResult
    mutating func endTask(_ token: Token) -> Cancellation? {
        settlingTasks += 1
        return end(token)
    }

    /// A side effect ended on its worker's thread: a synchronous one's body returned, or the task a
    /// worker was starting ended before the start returned (its body did not suspend). Its slot is
    /// freed (see ``end(_:)``), and the worker takes the next waiting job in the same look, if one
    /// waits. The worker holds a job throughout (the next one, or this one until it has settled
    /// its promise and calls ``finishJobAndTakeNext(onThread:)``), so a store that looks idle has
    /// settled the promise.
    mutating func endOnWorker(_ token: Token, thenTakeNextOn thread: Int32) -> (cancellation: Cancellation?, next: Taken?) {
        let cancellation = end(token)
        guard phases.waiting > 0 else { return (cancellation, nil) }
        return (cancellation, finishJobAndTakeNext(onThread: thread))
    }

    /// A worker that ended `entry` and goes on with its next job leaves it here, unless another is
    /// held: the thread of the next ``add(_:)``, which usually allocated it, takes it out
    /// (``takeHeld()``) and so frees it into its own cache (docs/PERFORMANCE.md, "Side effects:
    /// no-op SideEffect"). Returns whether it is held: a worker that left one takes out what is
    /// held as it goes idle, so that an idle store holds none.
    mutating func hold(forTheNextAdd entry: Entry) -> Bool {
        guard heldForTheNextAdd == nil else { return false }
        heldForTheNextAdd = entry
        return true
    }

    /// Takes out the side effect held for the next add (see ``hold(forTheNextAdd:)``).
    mutating func takeHeld() -> Entry? {
        var held: Entry?
        swap(&held, &heldForTheNextAdd)
        return held
    }

    /// The promise of a task that ended (see ``endTask(_:)``) has settled.
    mutating func taskSettled() {
        settlingTasks -= 1
    }

    /// The side effect was replaced by an item handled elsewhere (an interceptor passed on a state
    /// updater in its place): its slot is freed, uncounted, as the replacement is counted where
    /// it is handled.
    mutating func handOver(_ token: Token) {
        remove(token)
    }

    // MARK: - Storage

    /// The phase of slot `index`, moved out: the slot is left free (and the side effect is not
    /// retained on the way, as a copy would).
    @inline(__always)
    mutating func takePhase(of index: Int) -> Phase {
        var phase = Phase.free
        swap(&phase, &slots[index].phase)
        return phase
    }

    /// The side effect in slot `index`, whatever its phase; nil when the slot is free.
    @inline(__always)
    func entry(at index: Int) -> Entry? {
        switch slots[index].phase {
        case .free: nil
        case .waiting(let entry), .onWorker(let entry, _), .task(let entry, _): entry
        }
    }

    /// Whether the side effect a token names is still there.
    @inline(__always)
    func isLive(_ token: Token) -> Bool {
        guard slots[token.slot].generation == token.generation else { return false }
        if case .free = slots[token.slot].phase { return false }
        return true
    }

    /// Puts a new side effect, waiting, in a free slot.
    private mutating func store(_ entry: Entry) -> Token {
        if let free = freeSlots.popLast() {
            slots[free].phase = .waiting(entry)
            return Token(slot: free, generation: slots[free].generation)
        }
        slots.append(Slot(phase: .waiting(entry)))
        return Token(slot: slots.count - 1, generation: 0)
    }

    /// A side effect has left `worker`: for a task, or for good.
    private mutating func leftWorker(_ worker: Worker) {
        phases.onWorker -= 1
        demand.jobLeftWorker(wasBlocked: worker.isBlocked, wasAssumed: worker.block == .assumed)
    }

    /// Takes a side effect out, whatever its phase, and frees its slot for the next one.
    mutating func remove(_ token: Token) {
        guard slots[token.slot].generation == token.generation else { return }
        _ = remove(at: token.slot)
    }

    /// Takes the side effect in slot `index` out and frees the slot (its generation moves on).
    /// Returns what cancelled it, wrapped: nil when the slot was free, `.some(nil)` when nothing
    /// cancelled it.
    private mutating func remove(at index: Int) -> Cancellation?? {
        let entry: Entry
        switch takePhase(of: index) {
        case .waiting(let waiting):
            entry = waiting
            phases.waiting -= 1
        case .onWorker(let running, let worker):
            entry = running
            leftWorker(worker)
        case .task(let running, _):
            entry = running
            phases.task -= 1
        case .free:
            return nil
        }
        slots[index].generation &+= 1
        slots[index].isOutsideShutdown = false
        freeSlots.append(index)
        return .some(entry.cancellation)
    }
}
