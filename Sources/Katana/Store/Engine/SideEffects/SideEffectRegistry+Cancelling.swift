extension SideEffectRegistry {
    // MARK: - Cancelling

    /// The promise of a side effect the store has taken was cancelled (and rejected already): one
    /// still waiting goes without ever running; a running one is marked cancelled, and its task is
    /// cancelled. Returns what to stop; nil when there is nothing (it ended, or was cancelled).
    ///
    /// When the side effect is not here at all, it may be on its way from the inbox (taken by the
    /// drainer, not reached yet): with `cutBefore`, the inbox's count at the cancellation, a cut is
    /// left so that ``add(_:)`` refuses it.
    mutating func cancel(promise: PromiseHandle, cutBefore: UInt64?) -> Stop? {
        for index in slots.indices {
            guard let own = entry(at: index)?.promise, own.isSame(as: promise) else { continue }
            return cancel(Token(slot: index, generation: slots[index].generation), .promise)
        }
        if let cutBefore, shutdown != .over {
            cuts.append(.promise(promise, before: cutBefore))
        }
        return nil
    }

    /// Cancels every side effect with this id dispatched before `before` (the inbox's count at the
    /// call) that is here and not cancelled yet, in dispatch order; with `leavingCut`, also those
    /// still on their way from the inbox (see ``Cut``).
    mutating func cancel(id: SideEffectID, before: UInt64, leavingCut: Bool) -> [Stop] {
        if leavingCut, shutdown != .over {
            // One cut per id: the latest covers the earlier ones.
            cuts.removeAll { if case .id(let other, _) = $0 { other == id } else { false } }
            cuts.append(.id(id, before: before))
        }
        return cancel(.id) { entry, _ in entry.identity?.id == id && entry.order < before }
    }

    /// Cancels each side effect `isTarget` accepts (given whether it is still waiting) and that is
    /// not cancelled yet, in dispatch order.
    mutating func cancel(_ reason: Cancellation, where isTarget: (_ entry: Entry, _ isWaiting: Bool) -> Bool) -> [Stop] {
        var targets: [(order: UInt64, token: Token)] = []
        for index in slots.indices {
            guard let entry = entry(at: index), entry.cancellation == nil else { continue }
            let isWaiting = if case .waiting = slots[index].phase { true } else { false }
            guard isTarget(entry, isWaiting) else { continue }
            targets.append((entry.order, Token(slot: index, generation: slots[index].generation)))
        }
        return targets.sorted { $0.order < $1.order }.compactMap { cancel($0.token, reason) }
    }

    /// Cancels one side effect: a waiting one goes now, a running one is marked until its body ends.
    private mutating func cancel(_ token: Token, _ reason: Cancellation) -> Stop? {
        guard isLive(token), let entry = entry(at: token.slot), entry.cancellation == nil else { return nil }
        switch slots[token.slot].phase {
        case .waiting:
            remove(token)
            countCancelled(1)
            return Stop(itemType: entry.itemType, promise: entry.promise, task: nil, reason: reason)
        case .task(_, let task):
            entry.recordCancellation(reason)
            return Stop(itemType: entry.itemType, promise: entry.promise, task: task, reason: reason)
        case .onWorker, .free:
            entry.recordCancellation(reason)
            return Stop(itemType: entry.itemType, promise: entry.promise, task: nil, reason: reason)
        }
    }

    /// Counts side effects cancelled before they ran, while a shutdown counts.
    mutating func countCancelled(_ count: Int) {
        switch shutdown {
        case .counting, .cancelling: shutdownCounts.cancelled += count
        case .none, .over: break
        }
    }

    // MARK: - Shutdown

    /// A shutdown begins: from now on, each side effect that ends or is cancelled is counted,
    /// apart from those cancelled already, whose promises were rejected before the shutdown.
    mutating func beginShutdown() {
        guard shutdown == .none else { return }
        shutdown = .counting
        for index in slots.indices where entry(at: index)?.cancellation != nil {
            slots[index].isOutsideShutdown = true
        }
    }

    /// The shutdown cancels what is left: side effects waiting for a worker never run, async ones
    /// are cancelled (those on a worker do not start their task), and new ones are refused. A
    /// synchronous body that is running cannot be stopped: it is left to finish. Returns what to
    /// stop, in dispatch order.
    mutating func cancelForShutdown() -> [Stop] {
        guard shutdown == .none || shutdown == .counting else { return [] }
        shutdown = .cancelling
        return cancel(.shutdown) { entry, isWaiting in entry.isAsync || isWaiting }
    }

    /// The shutdown stops waiting: what still runs is counted as still running (whatever cancelled
    /// it, and when), and the promises of those not cancelled yet are to be rejected now (their
    /// bodies' outcomes are dropped when they end), so that nothing settles a promise after the
    /// shutdown has returned. Returns the counts and what to stop.
    mutating func giveUp() -> (counts: ShutdownCounts, stops: [Stop]) {
        let stops = cancel(.shutdown) { _, _ in true }
        var final = shutdownCounts
        final.stillRunning = count
        // Running ones, cancelled just now or before, are counted as still running, not cancelled.
        shutdown = .over
        return (final, stops)
    }
}
