extension SideEffectRunner {
    // MARK: - Async side effects

    /// Starts the task of an async side effect on a worker, once its interceptors have passed it
    /// on (or passed on an async replacement, which takes its place); the task ends the side
    /// effect's entry and settles its promise when the body returns.
    func startTask(_ job: Job, token: Registry.Token) {
        if let cancellation = registry.withLock({ $0.startTask(token) }) {
            // Cancelled while its interceptors ran: it does not start.
            if ends.isObserved {
                ends.report(job.envelope.item, sequence: job.envelope.sequence, startedAt: nil, result: nil, cancelledBy: cancellation)
            }
            job.envelope.reject(cancellation.error(for: job.itemType))
            return
        }
        let task = makeTask(job, token: token)
        registry.withLock { $0.attach(task, to: token) }?.cancel()
    }

    /// Starts, on this worker, the task of an async side effect taken as a task (no interceptors
    /// run first, no task starter), then returns the worker's next job: see ``makeTask(_:token:)``.
    /// A task that ends before the start returns (its body did not suspend) ends its entry and
    /// takes the worker's next job itself, in one look at the registry, and runs it when it is an
    /// async side effect too (see ``WorkerLoop``).
    /// Inlined into the worker's loop (docs/PERFORMANCE.md, "Side effects: no-op AsyncSideEffect").
    @inline(__always)
    func startTaskHere(_ job: Job, token: Registry.Token, on start: WorkerLoop) -> Registry.Taken? {
        job.taskRunner = self
        job.taskToken = token
        start.job = job
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate { await Self.runTask(job) }
        } else {
            task = Task { await Self.runTask(job) }
        }
        // The task may have gone on to later side effects (see ``WorkerLoop``): the one it
        // suspended in is the one its handle belongs to.
        let current = start.job ?? job
        start.job = nil
        if start.ended {
            return takeNextAfterEndedStart(start)
        }
        let (cancelNow, next) = registry.withLock { $0.attach(task, to: current.taskToken ?? token, thenTakeNextOn: start.thread) }
        cancelNow?.cancel()
        return next
    }

    /// The job a task that ended during its start took for its worker; when none waited then,
    /// the worker looks again now that the task's promise has settled.
    private func takeNextAfterEndedStart(_ start: WorkerLoop) -> Registry.Taken? {
        start.ended = false
        guard let next = start.next else {
            return registry.withLock { $0.finishJobAndTakeNext(onThread: start.thread) }
        }
        start.next = nil
        return next
    }

    /// Makes the task of an async side effect whose entry is a task already (or, with a task
    /// starter, hands it to the starter).
    ///
    /// On this worker the task starts at once and runs until it first suspends (where the
    /// platform has `Task.immediate`; an ordinary task elsewhere): a short side effect starts,
    /// runs and ends here, with no hop to another thread, and one that blocks before it suspends
    /// holds up only this worker.
    func makeTask(_ job: Job, token: Registry.Token) -> Task<Void, Never> {
        job.taskRunner = self
        job.taskToken = token
        if let taskStarter {
            return taskStarter { await Self.runTask(job) }
        }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate { await Self.runTask(job) }
        }
        return Task { await Self.runTask(job) }
    }

    /// The body of an async side effect's task. It runs on the task's executor without a switch
    /// of its own (`nonisolated(nonsending)`): the side effect's body makes the one switch it needs.
    /// It keeps little across the await, so that the task's frames stay small (docs/PERFORMANCE.md,
    /// "Side effects: no-op AsyncSideEffect").
    ///
    /// A side effect whose body ended on its worker before the worker's start returned (it never
    /// suspended) hands the task on to the worker's next async side effect, when one waits and
    /// this task was not cancelled: see ``finishTask(_:outcome:)``.
    @inline(__always)
    nonisolated(nonsending) static func runTask(_ first: Job) async {
        var job = first
        while case .start(let runner) = job.kind {
            // Cancelled before its handle reached the registry: the task cancels itself, so the
            // body sees it from its first line.
            if job.isCancellationRequested {
                withUnsafeCurrentTask { $0?.cancel() }
            }
            if job.observesEnds {
                job.bodyStart = SideEffectEndObservers.now
            }
            let outcome: Result<any Sendable, any Error>
            if job.taskRunner?.restoresContext == true, let dispatchContext = job.taskRunner?.dispatchContext, job.envelope.context != nil {
                outcome = await runRestoring(job, with: runner, in: dispatchContext)
            } else if let logger = SignpostLogger.active(job.taskRunner?.tracer) {
                outcome = await runTraced(job, with: runner, logger: logger)
            } else {
                do {
                    outcome = .success(try await runner.run(job.envelope.item, sequence: job.envelope.sequence))
                } catch {
                    outcome = .failure(error)
                }
            }
            guard let next = finishTask(job, outcome: outcome) else { return }
            job = next
        }
    }

    /// Runs a side effect's body inside a signpost interval, for a store that traces. Apart, so
    /// that an untraced task keeps no interval in its frame (docs/PERFORMANCE.md, "Side effects:
    /// no-op AsyncSideEffect").
    @inline(never)
    nonisolated(nonsending) static func runTraced(
        _ job: Job,
        with runner: ItemKind.AsyncSideEffectRunner,
        logger: SignpostLogger
    ) async -> Result<any Sendable, any Error> {
        let interval = logger.begin(job.envelope.item, kind: SignpostLogger.Kind.sideEffect)
        let outcome: Result<any Sendable, any Error>
        do {
            outcome = .success(try await runner.run(job.envelope.item, sequence: job.envelope.sequence))
        } catch {
            outcome = .failure(error)
        }
        if let interval {
            interval.logger.end(interval)
        }
        return outcome
    }

    /// Ends a task's side effect: its entry goes, then its promise settles, so whoever sees the
    /// promise settled sees the side effect gone; the registry counts it as settling in between,
    /// so a store that looks idle has settled it. A cancelled one's promise gets the
    /// cancellation's error, whether the canceller's rejection or the body's end comes first.
    ///
    /// A task that ends while its worker is starting it takes the worker's next job in the same
    /// look at the registry (see ``WorkerLoop``). When that job is an async side effect too and
    /// this task is not cancelled, the task runs it next: returned here. Its handle has not left
    /// the worker yet, so only the side effects it ran can have cancelled it.
    private static func finishTask(_ job: Job, outcome: Result<any Sendable, any Error>) -> Job? {
        guard let owner = job.taskRunner, let token = job.taskToken else { return nil }
        if let start = workerLoop.current, start.job === job {
            let (cancellation, next) = owner.registry.withLock { $0.endOnWorker(token, thenTakeNextOn: start.thread) }
            if job.observesEnds {
                owner.ends.report(job.envelope.item, sequence: job.envelope.sequence, startedAt: job.bodyStart, result: outcome, cancelledBy: cancellation)
            }
            settle(job, outcome: outcome, cancellation: cancellation)
            if let next, next.entry.startsTaskWhenTaken, !Task.isCancelled {
                return owner.carryOn(with: next, on: start)
            }
            start.ended = true
            start.next = next
            return nil
        }
        let cancellation = owner.registry.withLock { $0.endTask(token) }
        if job.observesEnds {
            owner.ends.report(job.envelope.item, sequence: job.envelope.sequence, startedAt: job.bodyStart, result: outcome, cancelledBy: cancellation)
        }
        settle(job, outcome: outcome, cancellation: cancellation)
        owner.registry.withLock { $0.taskSettled() }
        owner.activity.pokeIfWatched()
        return nil
    }

    /// Settles a task's promise with its body's outcome, or with the error of its cancellation.
    private static func settle(_ job: Job, outcome: Result<any Sendable, any Error>, cancellation: Registry.Cancellation?) {
        if let cancellation {
            job.envelope.reject(cancellation.error(for: job.itemType))
        } else {
            job.envelope.promise?.settle(erased: outcome, replacing: job.envelope.item)
        }
    }

    /// Rejects each stopped side effect's promise with its cancellation's error, and cancels its task.
    static func carryOut(_ stops: [Registry.Stop]) {
        for stop in stops {
            stop.promise?.cancel(with: stop.reason.error(for: stop.itemType))
            stop.task?.cancel()
        }
    }
}

extension SideEffectRunner {
    /// The task of a side effect that ended during its worker's start goes on with `next`, the
    /// async side effect it took for that worker: as the worker would after a job, it starts the
    /// help the take asked for and tells watchers a side effect ended; the task is now `next`'s.
    func carryOn(with next: Registry.Taken, on start: WorkerLoop) -> Job {
        askForHelp(worker: next.startsWorker, monitor: next.startsMonitor)
        activity.pokeIfWatched()
        next.entry.taskRunner = self
        next.entry.taskToken = next.token
        start.job = next.entry
        return next.entry
    }
}
