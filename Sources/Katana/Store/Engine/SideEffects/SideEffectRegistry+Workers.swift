extension SideEffectRegistry {
    // MARK: - Workers

    /// A worker asked for by ``add(_:)`` or ``take(onThread:)`` has begun: it takes jobs until none waits.
    mutating func workerBegins() {
        demand.workerBegins()
    }

    /// A worker on `thread`, which has begun or finished its job, takes the oldest waiting side
    /// effect; nil when none waits (the worker then ends). When others still wait and no other
    /// worker is free, the taker is told to ask for one more, so a burst spreads over workers as
    /// they free up.
    mutating func take(onThread thread: Int32 = 0) -> Taken? {
        while nextWaiting < waitingQueue.count {
            let token = waitingQueue[nextWaiting]
            nextWaiting += 1
            // A token whose side effect was cancelled while it waited names nothing waiting now.
            guard slots[token.slot].generation == token.generation, case .waiting = slots[token.slot].phase else { continue }
            // Moved out of the slot and back in with its new phase: no retain of the side effect.
            guard case .waiting(let entry) = takePhase(of: token.slot) else { continue }
            slots[token.slot].phase = .onWorker(entry, Worker(thread: thread, takenAtTick: tick))
            phases.waiting -= 1
            phases.onWorker += 1
            if taken.isFull {
                pruneTaken()
            }
            taken.append(token)
            demand.workerTook()
            compactWaitingQueue()
            let request = demand.jobsWait(phases.waiting)
            return Taken(token: token, entry: entry, startsWorker: request.startsWorker, startsMonitor: request.startsMonitor)
        }
        demand.workerEnds()
        if waitingQueue.capacity > Self.retainedQueueCapacity {
            waitingQueue = []
        } else {
            waitingQueue.removeAll(keepingCapacity: true)
        }
        nextWaiting = 0
        return nil
    }

    /// A worker finished its job (its promise settled, or its task started) and looks for the
    /// next one (see ``take(onThread:)``).
    mutating func finishJobAndTakeNext(onThread thread: Int32 = 0) -> Taken? {
        demand.workerFinished()
        return take(onThread: thread)
    }

    // MARK: - Blocked jobs

    /// A job the monitor is to look at: on its worker, not blocked, there for at least a tick.
    struct Candidate {
        let token: Token
        let thread: Int32
    }

    /// The monitor ticks (while jobs wait at the width limit): the jobs it should ask the thread
    /// probe about, which it does outside the registry's lock, then reports to ``monitorTicked(_:)``.
    mutating func monitorCandidates() -> [Candidate] {
        tick &+= 1
        return taken.tokens.compactMap { token in
            guard let worker = Self.worker(of: token, in: slots), !worker.isBlocked,
                  tick &- worker.takenAtTick >= WorkerDemand.ticksBeforeJudging else { return nil }
            return Candidate(token: token, thread: worker.thread)
        }
    }

    /// What the probe said of each candidate (asleep, running, or nil: it cannot tell): the jobs
    /// still on the same worker that count as blocked now stop counting against the width, and
    /// workers start for the jobs waiting behind them. A job whose thread runs (or waits for a
    /// core) keeps its place: more workers would only share the same cores.
    mutating func monitorTicked(_ findings: [(candidate: Candidate, asleep: Bool?)]) -> Tick {
        var firstSightings = false
        for (candidate, asleep) in findings {
            guard isLive(candidate.token), case .onWorker(let entry, var worker) = slots[candidate.token.slot].phase,
                  !worker.isBlocked else { continue }
            let asleepBefore = worker.seenAsleepAtTick != 0 && tick &- worker.seenAsleepAtTick == 1
            worker.seenAsleepAtTick = asleep == true ? tick : 0
            let ticks = tick &- worker.takenAtTick
            // Where the probe cannot tell, each job already taken for blocked makes the next one
            // wait longer (``WorkerDemand/isBlocked(onWorkerFor:asleep:asleepAtTheLookBefore:)``):
            // on a busy machine, preempted side effects look blocked, and lending each a worker
            // would only add threads to share the same cores.
            if demand.isBlocked(onWorkerFor: ticks, asleep: asleep, asleepAtTheLookBefore: asleepBefore) {
                worker.block = asleep == nil ? .assumed : .seenAsleep
                demand.jobBlocked(assumed: asleep == nil)
            } else if asleep == true {
                firstSightings = true
            }
            slots[candidate.token.slot].phase = .onWorker(entry, worker)
        }
        let decision = demand.monitorTicked(phases.waiting)
        return Tick(startsWorkers: decision.startsWorkers, keepsTicking: decision.keepsTicking, looksAgainSoon: firstSightings)
    }

    /// The worker `id` announced that the job it runs blocks (in the package's `wait`): the job
    /// stops counting against the width at once, until ``waitEnded(onWorker:)``. Returns how many
    /// workers to start for the jobs waiting behind it.
    mutating func waitBegan(onWorker id: Int32) -> Int {
        guard let index = slotOnWorker(id), case .onWorker(let entry, var worker) = slots[index].phase, !worker.isBlocked else { return 0 }
        worker.block = .announced
        slots[index].phase = .onWorker(entry, worker)
        demand.jobBlocked()
        return demand.workersForBlocked(phases.waiting)
    }

    /// The announced wait of the job the worker `id` runs has ended: it counts against the width again.
    mutating func waitEnded(onWorker id: Int32) {
        guard let index = slotOnWorker(id), case .onWorker(let entry, var worker) = slots[index].phase, worker.block == .announced else { return }
        worker.block = .none
        slots[index].phase = .onWorker(entry, worker)
        demand.jobUnblocked()
    }

    /// The slot of the job the worker `id` runs, if it runs one.
    private func slotOnWorker(_ id: Int32) -> Int? {
        taken.tokens.first { Self.worker(of: $0, in: slots)?.thread == id }?.slot
    }

    /// The worker that the job of `token` is on in `slots`; nil once it has left (or its slot was reused).
    static func worker(of token: Token, in slots: [Slot]) -> Worker? {
        guard slots[token.slot].generation == token.generation, case .onWorker(_, let worker) = slots[token.slot].phase else { return nil }
        return worker
    }

    private mutating func pruneTaken() {
        let slots = slots
        taken.prune { Self.worker(of: $0, in: slots) != nil }
    }

    private mutating func compactWaitingQueue() {
        if nextWaiting >= Self.compactionThreshold, nextWaiting * 2 >= waitingQueue.count {
            // A steady stream never empties the queue: drop the tokens already taken.
            waitingQueue.removeFirst(nextWaiting)
            nextWaiting = 0
        }
    }
}
