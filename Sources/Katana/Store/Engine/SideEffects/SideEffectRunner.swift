import Dispatch

/// Runs a store's side effects: keeps them in its ``SideEffectRegistry`` from the moment the
/// drainer takes them, and runs each on one of the store's workers (threads of ``WorkerThreads``):
/// a synchronous body there, an async one as a task started there, which runs there until it
/// first suspends.
///
/// A side effect's interceptors run where the side effect runs, on its worker, as in Katana 6: an
/// interceptor may block on a dispatch it makes there. What they pass on is handled as what it is:
/// a side effect on the same worker, anything else in the store's inbox.
///
/// A worker of this store takes side effects until none waits, so a burst of short ones costs a
/// few thread wake-ups, not one each; a side effect that blocks (a sleep, a semaphore, synchronous
/// I/O, the package's own `wait`) holds only its own worker, and the next side effect gets
/// another.
final class SideEffectRunner: @unchecked Sendable {
    // @unchecked: `registry` is only reached through its lock; everything else is a constant.

    typealias Registry = SideEffectRegistry<Job>

    /// The side effects, in dispatch order, and the store's workers (lock order: taken alone, or
    /// inside the inbox's for a side effect added in place; no other lock is taken while it is
    /// held). Only the runner's own files reach it: the engine and its shutdown ask the runner.
    let registry = Locked(Registry(), spinning: true)
    let threads: WorkerThreads
    /// What the operating system tells about the workers' threads.
    let probe: any ThreadProbe
    let tracer: SignpostLogger?
    private let chain: InterceptorChain?
    private let classify: @Sendable (any Dispatchable) -> ItemKind
    private let handOff: @Sendable (Envelope) -> Void
    /// Starts async side effects' tasks, when the configuration gives a starter.
    let taskStarter: AsyncSideEffectTaskStarter?
    /// Poked when a side effect leaves a worker or ends.
    let activity: ActivitySignal
    /// Told when a side effect ends, when anyone asked.
    let ends: SideEffectEndObservers
    /// Puts an item's captured context back around its side effect's body, when the store has one.
    let dispatchContext: DispatchContext?
    /// Whether there is one: what each side effect tests, one byte.
    let restoresContext: Bool

    /// A runner for the store's side effects (each kind's runner holds the store's context),
    /// through `chain` when there is one, on `threads`. `classify` tells what an interceptor passed
    /// on in place of a side effect, and `handOff` sends it to the store when it is not one.
    init(
        tracer: SignpostLogger?,
        chain: InterceptorChain?,
        classify: @escaping @Sendable (any Dispatchable) -> ItemKind,
        handOff: @escaping @Sendable (Envelope) -> Void,
        taskStarter: AsyncSideEffectTaskStarter?,
        activity: ActivitySignal,
        ends: SideEffectEndObservers = SideEffectEndObservers(),
        threads: WorkerThreads = .shared,
        probe: any ThreadProbe = ProcThreadProbe(),
        dispatchContext: DispatchContext? = nil
    ) {
        self.dispatchContext = dispatchContext
        restoresContext = dispatchContext != nil
        self.tracer = tracer
        self.chain = chain
        self.classify = classify
        self.handOff = handOff
        self.taskStarter = taskStarter
        self.activity = activity
        self.ends = ends
        self.threads = threads
        self.probe = probe
    }

    // MARK: - Taking side effects in (the drainer)

    /// The drainer takes a synchronous or returning side effect: it waits for a worker.
    func submit(_ envelope: Envelope, running runner: @escaping ItemKind.SideEffectRunner) {
        add(Job(envelope, .run(runner), identity: nil, startsTaskWhenTaken: false, observesEnds: ends.isObserved))
    }

    /// The drainer takes an async side effect: it waits for a worker, which runs its interceptors
    /// (if the store has any) and starts its task.
    func submit(_ envelope: Envelope, starting runner: ItemKind.AsyncSideEffectRunner) {
        let interceptorsFirst = chain != nil && !envelope.skipsInterceptors
        add(Job(
            envelope, .start(runner), identity: runner.identity(envelope.item), startsTaskWhenTaken: !interceptorsFirst,
            observesEnds: ends.isObserved
        ))
    }

    /// Gives the side effect its entry, or rejects its promise when the registry refuses it.
    private func add(_ job: Job) {
        // What a worker finished with, let go of here, outside the lock (see `hold(forTheNextAdd:)`).
        var released: Job?
        let added = registry.withLock { registry in
            released = registry.takeHeld()
            return registry.add(job)
        }
        withExtendedLifetime(released) {}
        if !added.cancelling.isEmpty {
            Self.carryOut(added.cancelling)
        }
        if let refusal = added.refusal {
            job.envelope.reject(refusal.error(for: job.itemType))
        }
        askForHelp(worker: added.startsWorker, monitor: added.startsMonitor)
    }

    /// Runs one job on this worker (whose loop is `loop`); returns the next one, taken when this
    /// one ended.
    func run(_ job: Job, token: Registry.Token, on loop: WorkerLoop) -> Registry.Taken? {
        let thread = loop.thread
        switch job.kind {
        case .run(let runner):
            guard let chain, !job.envelope.skipsInterceptors else {
                // The entry goes before the promise settles (whoever sees it settled sees the side
                // effect gone). The worker holds a job until then, so a store that looks idle has
                // settled the promises of what it ran: the next one, taken in the same look when
                // one waits, or this one, let go of after the settle.
                if ends.isObserved {
                    job.envelope.settle(runReportingEnd(job.envelope, with: runner, token: token, standingFor: job))
                    break
                }
                // The envelope is read in place, and the outcome handed on as it is: copies of
                // either go through their types' value witnesses (docs/PERFORMANCE.md, "Side
                // effects: no-op SideEffect").
                let outcome = runBody(job.envelope, with: runner)
                let (cancellation, next, held) = registry.withLock { registry in
                    let ended = registry.endOnWorker(token, thenTakeNextOn: thread)
                    let held = ended.next != nil && registry.hold(forTheNextAdd: job)
                    return (ended.cancellation, ended.next, held)
                }
                if held {
                    loop.leftAJob = true
                }
                if let cancellation {
                    job.envelope.reject(cancellation.error(for: job.itemType))
                } else {
                    job.envelope.settle(outcome)
                }
                guard let next else { break }
                return next
            }
            intercept(job, token: token, with: chain) { passed in
                if self.ends.isObserved {
                    return self.runReportingEnd(passed, with: runner, token: token, standingFor: job)
                }
                let outcome = self.runBody(passed, with: runner)
                return self.registry.withLock { $0.end(token) }.map { .failure($0.error(for: job.itemType)) } ?? outcome
            }
        case .start(let runner):
            guard let chain, !job.startsTaskWhenTaken else {
                // Taken as a task already: start it, then the task's handle and the next job's
                // take in one look at the registry.
                let task = makeTask(job, token: token)
                let (cancelNow, next) = registry.withLock { $0.attach(task, to: token, thenTakeNextOn: thread) }
                cancelNow?.cancel()
                return next
            }
            intercept(job, token: token, with: chain) { passed in
                self.startTask(
                    Job(passed, .start(runner), identity: job.identity, startsTaskWhenTaken: false, observesEnds: job.observesEnds, standingInFor: job),
                    token: token
                )
                return nil
            }
        }
        return registry.withLock { $0.finishJobAndTakeNext(onThread: thread) }
    }

    /// Runs the side effect's interceptors on this worker. The first item they pass on with the
    /// side effect's own type goes to `handle`, in its place; anything else, and any later item,
    /// is handled as what it is.
    private func intercept(
        _ job: Job,
        token: Registry.Token,
        with chain: InterceptorChain,
        handle: @escaping (Envelope) -> Settlement?
    ) {
        let envelope = job.envelope
        let type = ObjectIdentifier(Swift.type(of: envelope.item))
        var tokenUsed = false
        let verdict = chain.run(envelope, in: InterceptorChain.Pass(for: chain) { passed in
            defer { tokenUsed = true }
            if tokenUsed {
                return self.handleExtra(passed)
            }
            if ObjectIdentifier(Swift.type(of: passed.item)) == type {
                return handle(passed)
            }
            return self.handleReplacement(passed, standingInFor: job, token: token)
        })
        switch verdict {
        case .passedOn:
            break
        case .blocked:
            _ = registry.withLock { $0.end(token) }
            envelope.reject(KatanaError.blockedByInterceptor(item: typeName(of: envelope.item)))
        case .rejected(let error):
            _ = registry.withLock { $0.end(token) }
            envelope.reject(error)
        }
    }

    /// Handles what an interceptor passed on in place of the side effect, as what it is, in its
    /// place in the registry; returns how to settle its promise once the interceptors have returned.
    private func handleReplacement(_ envelope: Envelope, standingInFor original: Job, token: Registry.Token) -> Settlement? {
        switch classify(envelope.item) {
        case .sideEffect(let runner):
            if ends.isObserved {
                return runReportingEnd(envelope, with: runner, token: token, standingFor: nil)
            }
            let outcome = runBody(envelope, with: runner)
            return registry.withLock { $0.end(token) }.map { .failure($0.error(for: type(of: envelope.item))) } ?? outcome
        case .asyncSideEffect(let runner):
            let job = Job(
                envelope, .start(runner), identity: runner.identity(envelope.item), startsTaskWhenTaken: false,
                observesEnds: original.observesEnds, standingInFor: original
            )
            startTask(job, token: token)
        case .updater, .unsupported, .ambiguous:
            registry.withLock { $0.handOver(token) }
            handOff(envelope)
        }
        return nil
    }

    /// Handles an item an interceptor passed on after the first one (without a promise): a
    /// synchronous side effect runs here, an async one gets an entry of its own, anything else
    /// goes to the inbox.
    private func handleExtra(_ envelope: Envelope) -> Settlement? {
        switch classify(envelope.item) {
        case .sideEffect(let runner):
            let started = ends.isObserved ? SideEffectEndObservers.now : nil
            let outcome = runBody(envelope, with: runner)
            if let started, case .result(let result) = outcome {
                ends.report(envelope.item, sequence: envelope.sequence, startedAt: started, result: result, cancelledBy: nil)
            }
        case .asyncSideEffect(let runner):
            submit(envelope, starting: runner)
        case .updater, .unsupported, .ambiguous:
            handOff(envelope)
        }
        return nil
    }

    /// What a synchronous side effect's run does when its store observes ends: runs the body,
    /// ends the entry, then reports the end; returns how to settle its promise. Apart from the
    /// paths above, so that a store that observes nothing pays one flag read (docs/PERFORMANCE.md,
    /// "Side-effect ends").
    @inline(never)
    private func runReportingEnd(
        _ envelope: Envelope, with runner: ItemKind.SideEffectRunner, token: Registry.Token, standingFor job: Job?
    ) -> Settlement {
        let started = SideEffectEndObservers.now
        let outcome = runBody(envelope, with: runner)
        let cancellation = registry.withLock { $0.end(token) }
        if case .result(let result) = outcome {
            ends.report(envelope.item, sequence: envelope.sequence, startedAt: started, result: result, cancelledBy: cancellation)
        }
        return cancellation.map { .failure($0.error(for: job?.itemType ?? type(of: envelope.item))) } ?? outcome
    }

    /// Runs a synchronous side effect's body here, as it is.
    func runBodyHere(_ envelope: Envelope, with runner: ItemKind.SideEffectRunner) -> Settlement {
        SignpostLogger.trace(tracer, envelope.item, kind: .sideEffect) {
            do {
                return .result(.success(try runner(envelope.item, envelope.sequence)))
            } catch {
                return .failure(error)
            }
        }
    }
}
