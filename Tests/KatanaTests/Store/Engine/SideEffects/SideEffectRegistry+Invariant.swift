@testable import Katana

extension SideEffectRegistry {
    /// A monitor tick in one step, with `isAsleep` as the thread probe.
    mutating func monitorTick(isAsleep: (_ thread: Int32) -> Bool?) -> Tick {
        let candidates = monitorCandidates()
        return monitorTicked(candidates.map { ($0, isAsleep($0.thread)) })
    }

    /// Whether the side effect was cancelled since it was taken.
    func isCancelled(_ token: Token) -> Bool {
        isLive(token) && entry(at: token.slot)?.cancellation != nil
    }

    /// The tokens in the list of jobs taken whose job is still on its worker, oldest first.
    func takenStillOnWorkers() -> [Token] {
        taken.tokens.filter { Self.worker(of: $0, in: slots) != nil }
    }

    /// What does not agree between the counts the registry keeps and its slots: empty when all is
    /// well. The fuzz test checks it after every step of random sequences.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var recounted = PhaseCounts()
        var running = 0
        var blocked = 0
        var assumed = 0
        for slot in slots {
            switch slot.phase {
            case .free: break
            case .waiting: recounted.waiting += 1
            case .onWorker(_, let worker):
                recounted.onWorker += 1
                if worker.isBlocked { blocked += 1 } else { running += 1 }
                if worker.block == .assumed { assumed += 1 }
            case .task: recounted.task += 1
            }
        }
        if recounted != phases { problems.append("phases \(phases), the slots hold \(recounted)") }
        if demand.running != running || demand.blocked != blocked {
            problems.append("demand counts \(demand.running) running and \(demand.blocked) blocked, the slots \(running) and \(blocked)")
        }
        if demand.assumed != assumed { problems.append("demand counts \(demand.assumed) assumed blocked, the slots \(assumed)") }
        if demand.busy < phases.onWorker { problems.append("\(demand.busy) busy workers for \(phases.onWorker) jobs on workers") }
        if demand.starting < 0 || demand.idle < 0 || demand.busy < 0 || settlingTasks < 0 {
            problems.append("a negative count: \(demand), settling \(settlingTasks)")
        }
        let free = slots.indices.filter { if case .free = slots[$0].phase { true } else { false } }
        if Set(free) != Set(freeSlots) || free.count != freeSlots.count {
            problems.append("free slots \(freeSlots.sorted()), the slots say \(free)")
        }
        let onWorker = slots.indices.filter { if case .onWorker = slots[$0].phase { true } else { false } }
        let listed = takenStillOnWorkers().map(\.slot)
        if Set(onWorker) != Set(listed) || onWorker.count != listed.count {
            problems.append("the list of jobs taken names slots \(listed.sorted()) on workers, the slots say \(onWorker)")
        }
        if taken.tokens.count > taken.limit {
            problems.append("the list of jobs taken holds \(taken.tokens.count) tokens, over its limit of \(taken.limit)")
        }
        let queued = Set(waitingQueue[nextWaiting...].map(\.slot))
        for index in slots.indices {
            if case .waiting = slots[index].phase, !queued.contains(index) {
                problems.append("slot \(index) waits but is not in the waiting queue")
            }
        }
        return problems
    }
}
