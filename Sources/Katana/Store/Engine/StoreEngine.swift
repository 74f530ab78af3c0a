import Dispatch

/// The machinery behind a store: its inbox, the loop that drains it, the state and the listeners.
/// `PartialStore` and `Store` are thin public faces over one engine.
///
/// The core loop, top to bottom (this file, and StoreEngine+Handling.swift for one item):
///
///     enqueue(item)                     any thread: into the inbox (DrainStateMachine), waking
///                                       the store's queue when it was idle
///     drain, by the one thread holding the inbox's DrainRight, batch after batch:
///         for each item, as what it is:
///             state updater             its interceptors, here            (InterceptorChain)
///                                       then applied in place             (UpdaterApplier)
///             side effect               into the side-effect registry, which runs its
///                                       interceptors and body on a worker (SideEffectRunner)
///         publish the batch's changes   listeners, then promises          (ListenerDelivery)
///
/// Who drains: a block on the store's serial queue; or a thread about to block on a dispatch
/// promise whose item is waiting (it handles the items up to its own, as `DispatchQueue.sync`
/// runs a block on the caller); or the thread dispatching a side effect to an idle store.
///
/// Ownership of mutable state:
/// - `inbox` (its lock): the waiting items, the phase, the audience, and the `Drainer` while
///   nobody drains.
/// - the `Drainer` (kind cache, change log, spare buffers) and the chain's drainer pass: the
///   thread holding the `DrainRight`; one at a time, by construction.
/// - `published` (its lock): the state cell, once start-up has made it.
/// - the state cell (its lock): the state, changed in place by the drainer, copied by readers.
/// - `delivery` (its lock): the listeners, the changes waiting for them and the delivery's phase
///   (a `DeliveryStateMachine`).
/// - `sideEffects`, `shutdownProgress` (their locks): set at start-up; the shutdown's progress.
/// - `shutdownSignal` (atomic): changed by the shutdown only, read by the drainer per item.
///
/// Lock order, wherever two are held together: the delivery's, then the inbox's (a listener added
/// or removed updates the audience); the inbox's, then the side-effect registry's (an entry made in
/// place). No other lock (a promise's, the side-effect pool's) is taken while one of these is held.
@usableFromInline final class StoreEngine<S: State>: ItemEnqueueing, @unchecked Sendable {
    // @unchecked: every mutable part is guarded as listed above.

    typealias Inbox = DrainStateMachine<AnyObject, Envelope>

    /// The serial queue drain blocks run on.
    let updaterQueue: DispatchQueue
    let inbox = Locked(Inbox())
    let delivery: ListenerDelivery<S>
    /// The state cell once the state initializer has run; nil before.
    let published = Locked<StateCell<S>?>(nil)
    /// The side-effect runner once start-up has made it; nil before.
    let sideEffects = Locked<SideEffectRunner?>(nil)
    /// How far a shutdown has gone, for the drainer.
    let shutdownSignal = ShutdownSignal()
    /// Where the store is in its shutdown (see ``ShutdownProgress``).
    let shutdownProgress = Locked(ShutdownProgress<CheckedContinuation<ShutdownReport, Never>>())
    let tracer: SignpostLogger?
    /// Poked by each part of the store that runs out of work, for tasks waiting for it to go quiet.
    let activity = ActivitySignal()
    /// Told when a side effect ends, once an interceptor asked (see ``SideEffectEnd``).
    let sideEffectEnds = SideEffectEndObservers()
    /// Whether drains report what they handled to ``MemoryRelease``.
    let releasesMemoryAfterBursts: Bool
    /// Starts async side effects' tasks, when the configuration gives one.
    let asyncSideEffectTaskStarter: AsyncSideEffectTaskStarter?
    /// The threads side effects run on.
    let workerThreads: WorkerThreads
    /// What the operating system tells about the workers' threads.
    let threadProbe: any ThreadProbe
    /// What items carry from the code that dispatches them, when the store has one.
    let dispatchContext: DispatchContext?
    /// Its capture function (one returning nil without one), and whether there is one: what a
    /// dispatch from outside tests, one byte (docs/PERFORMANCE.md, "Dispatch context").
    let captureContext: @Sendable () -> (any Sendable)?
    let capturesContext: Bool
    /// This engine's number in ``EngineDirectory``.
    let directoryNumber: UInt64
    /// The store this engine runs, which the inbox holds while work waits and the delivery while
    /// changes wait for the listeners (see ``DrainStateMachine/keptAlive``). Written once, by
    /// ``adopt(_:)``, under the inbox's lock; read (a weak load) only when one starts holding.
    private(set) weak var owner: AnyObject?

    init(
        label: String,
        listenerExecutor: any Executor,
        tracer: SignpostLogger?,
        releasesMemoryAfterBursts: Bool,
        asyncSideEffectTaskStarter: AsyncSideEffectTaskStarter? = nil,
        workerThreads: WorkerThreads = .shared,
        threadProbe: any ThreadProbe = ProcThreadProbe(),
        dispatchContext: DispatchContext? = nil
    ) {
        self.workerThreads = workerThreads
        self.threadProbe = threadProbe
        self.dispatchContext = dispatchContext
        captureContext = dispatchContext?.capture ?? capturesNothing
        capturesContext = dispatchContext != nil
        updaterQueue = DispatchQueue(label: label)
        delivery = ListenerDelivery(executor: listenerExecutor, activity: activity)
        self.tracer = tracer
        self.releasesMemoryAfterBursts = releasesMemoryAfterBursts
        self.asyncSideEffectTaskStarter = asyncSideEffectTaskStarter
        directoryNumber = EngineDirectory.newNumber()
        EngineDirectory.register(self, as: directoryNumber)
        if let queue = listenerExecutor as? DispatchQueue {
            ListenerQueues.register(delivery, on: queue)
        }
    }

    deinit { EngineDirectory.unregister(directoryNumber) }

    // MARK: - Enqueue

    /// Adds an item to the inbox and wakes the store's queue if it was idle. With
    /// `startingWhenIdle` (side effects), an idle store's item goes to the side-effect registry from
    /// the calling thread instead: everything dispatched before it has been handled, so the order holds.
    func enqueue(
        _ item: any Dispatchable,
        settling promise: PromiseHandle?,
        skipsInterceptors: Bool = false,
        startingWhenIdle: Bool = false,
        fromStoreWork: Bool = false,
        origin: OriginStamp = .outside
    ) {
        let action = inbox.withLock { inbox in
            inbox.enqueue(
                Envelope(item, promise: promise, skipsInterceptors: skipsInterceptors, sequence: inbox.enqueuedCount, origin: origin),
                handlingHereWhenIdle: startingWhenIdle,
                fromStoreWork: fromStoreWork,
                owner: { self.owner }
            )
        }
        carryOut(action, fromStoreWork: fromStoreWork)
    }

    /// Does what the inbox said once an item arrived.
    @inline(__always)
    func carryOut(_ action: consuming Inbox.EnqueueAction, fromStoreWork: Bool) {
        switch consume action {
        case .none:
            break
        case .scheduleDrain:
            updaterQueue.async { self.drainOnQueue() }
        case .reject(let envelope):
            envelope.rejectStoreGone()
        case .refuse(let envelope):
            envelope.reject(KatanaError.storeShutDown(item: typeName(of: envelope.item)))
        case .handleHere(let start):
            let drainer = Self.drainer(start.right)
            if !drainer.submitSideEffect(start.item) {
                drainer.withPassInstalled { process(start.item, for: start.audience, with: drainer) }
                publish(drainer, holdingStore: !fromStoreWork)
            }
            finish(start.right)
        }
    }

    // MARK: - Drain

    /// A drain block: handles batch after batch until the inbox is empty, unless another thread
    /// holds the drainer (it then takes what the block would have).
    func drainOnQueue() {
        switch inbox.withLock({ $0.drainBlockStarts() }) {
        case .some(let right):
            let previous = StoreQueueMarker.mark(self)
            defer { StoreQueueMarker.restore(previous) }
            let drainer = Self.drainer(right)
            var batch = drainer.takeSpareBatch()
            var handled = 0
            while let (audience, held) = inbox.withLock({ inbox in
                inbox.nextBatch(into: &batch, for: right).map { ($0, inbox.keptAlive != nil) }
            }) {
                handle(batch, for: audience, with: right, holdingStore: held)
                handled += batch.count
                drainer.empty(&batch)
            }
            drainer.keepSpareBatch(batch)
            drainer.reportHandled(handled)
            finish(right)
        case .none:
            return
        }
    }

    /// Gives the drainer back; schedules a drain block for what is left, or lets the drainer go
    /// when the store was released meanwhile.
    func finish(_ right: consuming Inbox.DrainRight) {
        finish(right.relinquish())
    }

    func finish(_ relinquished: Inbox.Relinquished) {
        let (action, heldStore) = inbox.withLock { inbox in
            (inbox.finish(relinquished), inbox.releaseOwnerIfIdle())
        }
        switch action {
        case .none, .release:
            // A released drainer goes with the last reference, here.
            break
        case .scheduleDrain:
            updaterQueue.async { self.drainOnQueue() }
        }
        activity.pokeIfWatched()
        withExtendedLifetime(heldStore) {}  // last: if nothing else holds the store, it goes here
    }

    /// The store takes this engine: work from outside waiting in the inbox holds it from now on,
    /// as does what its dependencies dispatched while they were made.
    func adopt(_ store: AnyObject) {
        // Under the inbox's lock, where enqueueing reads it (dependencies may dispatch already).
        inbox.withLock { inbox in
            owner = store
            if inbox.waitingCount > 0 {
                inbox.holdOwner { store }
            }
        }
    }

    // MARK: - Handle

    /// Handles one batch, then publishes its changes (held for the listeners if `holdingStore`).
    func handle(_ batch: [Envelope], for audience: Audience, with right: borrowing Inbox.DrainRight, holdingStore: Bool) {
        let drainer = Self.drainer(right)
        drainer.audience = audience
        drainer.withPassInstalled {
            // By index: `for … in` would copy each envelope out of the batch.
            for index in batch.indices {
                process(batch[index], for: audience, with: drainer)
            }
        }
        publish(drainer, holdingStore: holdingStore)
    }

    /// Sends one item on its way: a side effect into the side-effect registry, which runs its
    /// interceptors where it runs; anything else through the interceptors here, then to
    /// ``handle(_:with:)``. Once a shutdown cancels what is left, the item is rejected instead.
    private func process(_ envelope: Envelope, for audience: Audience, with drainer: Drainer<S>) {
        if drainer.shutdown.phase == .cancelling {
            drainer.shutdownCounts.cancelled += 1
            envelope.reject(KatanaError.cancelledByShutdown(item: typeName(of: envelope.item)))
            return
        }
        drainer.withKindEntry(of: envelope.item) { entry in
            switch entry.kind {
            case .sideEffect(let runner):
                drainer.sideEffects.submit(envelope, running: runner)
            case .asyncSideEffect(let runner):
                drainer.sideEffects.submit(envelope, starting: runner)
            case .updater, .unsupported, .ambiguous:
                let verdict = envelope.skipsInterceptors ? nil : drainer.withChain { $0?.runOnDrainer(envelope) }
                guard let verdict else {
                    if let settlement = handle(envelope, as: entry, for: audience, with: drainer) {
                        envelope.settle(settlement)
                    }
                    return
                }
                switch verdict {
                case .passedOn:
                    break
                case .blocked:
                    countForShutdown(drainer)
                    // A blocked updater leaves the state as it was, which is what its promise promised.
                    if entry.updater != nil {
                        envelope.promise?.settleDone(replacing: envelope.item)
                    } else {
                        envelope.reject(KatanaError.blockedByInterceptor(item: typeName(of: envelope.item)))
                    }
                case .rejected(let error):
                    countForShutdown(drainer)
                    envelope.reject(error)
                }
            }
        }
    }

    /// Counts a handled item for a shutdown under way; called once the item is handled and before
    /// its promise settles, so an item that was being handled when the shutdown began counts, and
    /// one whose promise settled before it does not.
    @inline(__always)
    func countForShutdown(_ drainer: Drainer<S>) {
        if drainer.shutdown.phase != .running {
            drainer.shutdownCounts.handled += 1
        }
    }

    // MARK: - Publish

    /// Hands the batch's state changes to the listeners, in one hop per batch.
    private func publish(_ drainer: Drainer<S>, holdingStore: Bool) {
        guard let runs = drainer.updates.takeChanges() else { return }
        var spare = delivery.publish(runs, owner: { holdingStore ? self.owner : nil })
        drainer.updates.reuse(&spare, keepingAtMost: ListenerDelivery<S>.retainedRuns)
    }

    // MARK: - Helpers

    /// The drainer a right carries (the machine only ever holds this engine's drainer).
    private static func drainer(_ right: borrowing Inbox.DrainRight) -> Drainer<S> {
        Unsafe.downcast(right.drainer, to: Drainer<S>.self)
    }
}

/// The capture function of a store without a dispatch context, never called.
private let capturesNothing: @Sendable () -> (any Sendable)? = { nil }
