/// A synchronous side effect dispatched to an idle store gets its entry under the inbox's lock (see
/// ``DrainStateMachine/drainerWhileIdle``): the runner's path for it, beside the inbox's side, apart
/// from the side effects' own folder.
extension SideEffectRunner {
    /// What an add in place leaves for after the inbox's lock: the job a worker left for that add
    /// (see ``SideEffectRegistry/hold(forTheNextAdd:)``), let go of with this value, and the
    /// worker or the monitor it asked for, started by ``carryOut()``. Nothing holding one of the
    /// engine's locks takes the pool's.
    struct AfterInPlace {
        var released: Job?
        /// The runner to ask for help, when the add asked for some.
        var helped: SideEffectRunner?
        var startsWorker = false
        var startsMonitor = false

        /// Starts what the add asked for.
        func carryOut() {
            helped?.askForHelp(worker: startsWorker, monitor: startsMonitor)
        }
    }

    /// The drainer offers a synchronous side effect dispatched to an idle store, under the inbox's
    /// lock: it gets its entry unless the registry would not take it as it is (a cut waits, or a
    /// shutdown cancels), and then the usual path adds it. Returns whether it was taken; what is
    /// left to do goes to `after`.
    func addInPlace(_ envelope: consuming Envelope, running runner: @escaping ItemKind.SideEffectRunner, leaving after: inout AfterInPlace) -> Bool {
        let job = Job(envelope, .run(runner), identity: nil, startsTaskWhenTaken: false, observesEnds: ends.isObserved)
        let added = registry.withLock { registry -> Registry.Added? in
            guard registry.takesNewOnesAsTheyAre else { return nil }
            after.released = registry.takeHeld()
            return registry.add(job)
        }
        // Taken as it is, it is never refused; were it, the usual path would add it again and say why.
        guard let added, added.refusal == nil else { return false }
        if added.startsWorker || added.startsMonitor {
            after.helped = self
            after.startsWorker = added.startsWorker
            after.startsMonitor = added.startsMonitor
        }
        return true
    }
}
