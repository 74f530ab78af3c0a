import Dispatch
import Foundation

/// Runs a store's side effects concurrently, each with its interceptor chain, on workers that take
/// them from a list (see ``SideEffectPoolState`` for when a worker starts, and where).
///
/// A side effect's interceptors run where the side effect runs, on its worker, as in Katana 6: an
/// interceptor may block on a dispatch it makes there. What its interceptors pass on is handled as
/// what it is: a side effect runs on the same worker, anything else goes to the store's inbox.
final class SideEffectPool: @unchecked Sendable {
    // @unchecked: `state` is only reached through its lock; everything else is a constant.

    /// What a worker runs: a side effect, the promise to settle with its outcome, how to run it,
    /// and whether its interceptors still have to see it.
    enum Job {
        /// A synchronous or returning side effect.
        case run(Envelope, ItemKind.SideEffectRunner)
        /// An async side effect, started as a task that settles its promise when it ends;
        /// `sequence` is its place in the order the store took items (see ``RunningSideEffects``).
        case start(Envelope, ItemKind.AsyncSideEffectRunner, sequence: UInt64)
    }

    private let state = Locked(SideEffectPoolState<Job>())
    /// The async side effects started and not ended (lock order: never held with `state`'s lock;
    /// a promise's lock may be taken while it is held, never the other way round).
    private let running = Locked(RunningSideEffects())
    private let context: any AnySideEffectContext
    private let tracer: SignpostLogger?
    private let chain: InterceptorChain?
    private let classify: @Sendable (any Dispatchable) -> ItemKind
    private let handOff: @Sendable (Envelope) -> Void
    /// Starts async side effects' tasks instead of the pool, when the configuration gives one.
    private let taskStarter: AsyncSideEffectTaskStarter?
    /// Poked when a job or an async side effect ends.
    private let activity: ActivitySignal

    /// A pool for side effects run with `context`, through `chain` when there is one. `classify`
    /// tells what an interceptor passed on in place of a side effect, and `handOff` sends it to
    /// the store when it is not a side effect.
    init(
        context: any AnySideEffectContext,
        tracer: SignpostLogger?,
        chain: InterceptorChain?,
        classify: @escaping @Sendable (any Dispatchable) -> ItemKind,
        handOff: @escaping @Sendable (Envelope) -> Void,
        taskStarter: AsyncSideEffectTaskStarter? = nil,
        activity: ActivitySignal
    ) {
        self.taskStarter = taskStarter
        self.activity = activity
        self.context = context
        self.tracer = tracer
        self.chain = chain
        self.classify = classify
        self.handOff = handOff
    }

    /// Runs `job` soon, concurrently with other side effects.
    func submit(_ job: Job) {
        start(state.withLock { $0.add(job) })
    }

    // MARK: - Workers

    private func start(_ worker: SideEffectPoolState<Job>.WorkerStart) {
        switch worker {
        case .none:
            break
        case .onQueue:
            Self.queue.async { self.work(onOwnThread: false) }
        case .onOwnThread:
            Thread.detachNewThread { self.work(onOwnThread: true) }
        }
    }

    /// A worker: takes jobs until none is waiting.
    private func work(onOwnThread: Bool) {
        let previous = Self.worker.replace(with: self)
        defer { Self.worker.restore(previous) }
        var taken = state.withLock { state in
            state.workerBegins(onOwnThread: onOwnThread)
            return state.take()
        }
        while let job = taken.job {
            start(taken.start)
            run(job)
            taken = state.withLock { state in
                state.finished()
                return state.take()
            }
            activity.pokeIfWatched()
        }
    }

    /// The pool whose worker is running on this thread, if any (a worker keeps its pool alive).
    static var current: SideEffectPool? {
        worker.current
    }

    private static let worker = ThreadLocal<SideEffectPool>()

    /// The queue workers run on: a concurrent queue of the package's own rather than a global
    /// queue, whose few threads also run Swift concurrency's tasks (a side effect blocked in a
    /// `wait` there would hold up every task in the process).
    private static let queue = DispatchQueue(label: "Katana.sideEffects", attributes: .concurrent)

    /// Called by this pool's worker thread before it blocks in a `wait`: a job waiting without a
    /// free worker then gets a worker of its own, so a blocked worker never holds the others up.
    func workerWillBlock() {
        start(state.withLock { $0.workerWillBlock() })
    }

    /// Called by this pool's worker thread when its `wait` returns.
    func workerDidUnblock() {
        state.withLock { $0.workerDidUnblock() }
    }

    // MARK: - Running side effects

    private func run(_ job: Job) {
        switch job {
        case .run(let envelope, let runner):
            guard let chain, !envelope.skipsInterceptors else {
                envelope.settle(runBody(envelope, with: runner))
                return
            }
            let type = ObjectIdentifier(Swift.type(of: envelope.item))
            intercept(envelope, with: chain) { passed in
                if ObjectIdentifier(Swift.type(of: passed.item)) == type {
                    return self.runBody(passed, with: runner)
                }
                // A synchronous side effect has no sequence: a replacement takes the newest.
                return self.handleReplacement(passed, order: .max)
            }
        case .start(let envelope, let runner, let order):
            guard let chain, !envelope.skipsInterceptors else {
                startTask(envelope, with: runner, order: order)
                return
            }
            let type = ObjectIdentifier(Swift.type(of: envelope.item))
            intercept(envelope, with: chain) { passed in
                if ObjectIdentifier(Swift.type(of: passed.item)) == type {
                    self.startTask(passed, with: runner, order: order)
                    return nil
                }
                return self.handleReplacement(passed, order: order)
            }
        }
    }

    /// Runs the side effect's interceptors on this worker; what they pass on goes to `handle`.
    private func intercept(_ envelope: Envelope, with chain: InterceptorChain, handle: @escaping (Envelope) -> Settlement?) {
        switch chain.run(envelope, in: InterceptorChain.Pass(for: chain, handle: handle)) {
        case .passedOn:
            break
        case .blocked:
            envelope.reject(KatanaError.blockedByInterceptor(item: typeName(of: envelope.item)))
        case .rejected(let error):
            envelope.reject(error)
        }
    }

    /// Handles what an interceptor passed on in place of a side effect, as what it is; returns how
    /// to settle its promise once the interceptors have returned (nil: something else settles it).
    private func handleReplacement(_ envelope: Envelope, order: UInt64) -> Settlement? {
        switch classify(envelope.item) {
        case .sideEffect(let runner):
            return runBody(envelope, with: runner)
        case .asyncSideEffect(let runner):
            startTask(envelope, with: runner, order: order)
        case .updater, .unsupported, .ambiguous:
            handOff(envelope)
        }
        return nil
    }

    /// Runs a synchronous side effect's body here; returns its outcome, for its promise.
    private func runBody(_ envelope: Envelope, with runner: ItemKind.SideEffectRunner) -> Settlement {
        let context = self.context
        return SignpostLogger.trace(tracer, envelope.item, kind: .sideEffect) {
            do {
                return .result(.success(try runner(envelope.item, context)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Starts an async side effect as a task that runs on this worker until it first suspends
    /// (where the platform has `Task.immediate`; an ordinary task elsewhere), so a short one needs
    /// no hop to another executor; the task settles the promise when the body ends.
    ///
    /// The side effect is registered as running before its task starts, and until its body ends,
    /// so that cancelling its promise, its id or the whole store cancels the task.
    private func startTask(_ envelope: Envelope, with runner: ItemKind.AsyncSideEffectRunner, order: UInt64) {
        // Registered first, then its promise is checked, under the registry's lock (lock order:
        // the registry's, then a promise's): a cancel that rejected the promise before is seen
        // here; one after it finds the registration (``cancelStarted(_:)``).
        let promise = envelope.promise
        let begun = running.withLock {
            $0.begin(runner.itemType, identity: runner.identity(envelope.item), promise: promise, order: order) {
                promise?.isPending ?? true
            }
        }
        if !begun.cancelling.isEmpty {
            Self.carryOut(begun.cancelling) { KatanaError.cancelled(item: $0) }
        }
        guard begun.starts else {
            if begun.isCancelledBeforeStart {
                running.withLock { $0.abandon(begun.token) }
                envelope.reject(KatanaError.cancelled(item: typeName(runner.itemType)))
            }
            return
        }
        let token = begun.token
        let context = self.context
        let tracer = self.tracer
        let operation: @Sendable () async -> Void = {
            // Cancelled before the task was attached (which may come only after the body has run):
            // the task cancels itself, so the body sees it from its first line.
            if self.running.withLock({ $0.cancellation(of: token) }) != nil {
                withUnsafeCurrentTask { $0?.cancel() }
            }
            let interval = tracer?.begin(envelope.item, kind: .sideEffect)
            let outcome: Result<any Sendable, any Error>
            do {
                outcome = .success(try await runner.run(envelope.item, context))
            } catch {
                outcome = .failure(error)
            }
            if let tracer, let interval { tracer.end(interval) }
            // Ended before its promise settles: whoever sees the promise settled sees it ended. A
            // cancelled one's promise gets the cancellation's error, whichever comes first: the
            // canceller's rejection, or the body's end with its own error.
            if let cancellation = self.running.withLock({ $0.end(token) }) {
                envelope.reject(cancellation.error(for: runner.itemType))
            } else {
                envelope.promise?.settle(erased: outcome, replacing: envelope.item)
            }
            self.activity.pokeIfWatched()
        }
        let task: Task<Void, Never>
        if let taskStarter {
            task = taskStarter(operation)
        } else if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate { await operation() }
        } else {
            task = Task { await operation() }
        }
        running.withLock { $0.attach(task, to: token) }?.cancel()
    }

    /// Rejects each stopped side effect's promise with the error `reason` makes from its item's
    /// name, and cancels its task.
    private static func carryOut(_ stops: [RunningSideEffects.Stop], reason: (String) -> KatanaError) {
        for stop in stops {
            stop.promise?.cancel(with: reason(typeName(stop.itemType)))
            stop.task?.cancel()
        }
    }

    // MARK: - Cancelling

    /// The promise of a side effect the store has taken was cancelled (and rejected already): an
    /// async one that is running has its task cancelled; one that has not started yet sees the
    /// rejection when it starts, and does not run.
    func cancelStarted(_ promise: PromiseHandle) {
        running.withLock { $0.cancel(promise: promise) }?.task?.cancel()
    }

    /// Cancels the async side effects whose ``AsyncSideEffect/cancellationID`` is `id` and whose
    /// sequence is below `sequence`: those waiting for a worker (never run), those running now, and
    /// those on their way to a worker when they begin. Returns how many were waiting or running.
    func cancelSideEffects(id: SideEffectID, before sequence: UInt64) -> Int {
        let waiting = state.withLock { state in
            state.removeWaiting { job in
                guard case .start(let envelope, _, let order) = job, order < sequence else { return false }
                return (envelope.item as? any AsyncSideEffect)?.cancellationID == id
            }
        }
        for case .start(let envelope, _, _) in waiting {
            envelope.reject(KatanaError.cancelled(item: typeName(of: envelope.item)))
        }
        let stops = running.withLock { $0.cancel(id: id, before: sequence) }
        Self.carryOut(stops) { KatanaError.cancelled(item: $0) }
        return waiting.count + stops.count
    }

    /// A shutdown cancels what is left: the side effects waiting for a worker are not run, and the
    /// running async ones are cancelled (a synchronous one that is running cannot be stopped, and
    /// finishes). Returns how many it cancelled.
    func cancelForShutdown() -> Int {
        let waiting = state.withLock { $0.takeWaiting() }
        for job in waiting {
            switch job {
            case .run(let envelope, _), .start(let envelope, _, _):
                envelope.reject(KatanaError.cancelledByShutdown(item: typeName(of: envelope.item)))
            }
        }
        let stops = running.withLock { $0.cancelAll() }
        Self.carryOut(stops) { KatanaError.cancelledByShutdown(item: $0) }
        return waiting.count + stops.count
    }

    /// Whether no job is waiting for a worker or running on one (an async side effect's job ends
    /// once its task has started; the task is counted by ``runningAsyncCount``).
    var jobsAreIdle: Bool {
        state.withLock { $0.isIdle }
    }

    /// How many async side effects have begun and not ended.
    var runningAsyncCount: Int {
        running.withLock { $0.count }
    }

    /// How many side effects are running or waiting.
    var activeCount: Int {
        let jobs = state.withLock { $0.waitingCount + $0.runningJobs }
        return jobs + running.withLock { $0.count }
    }
}
