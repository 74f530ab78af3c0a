import Dispatch

/// One dispatched item and the promise to settle once it has been handled.
struct Envelope {
    let item: any Dispatchable
    let promise: PromiseHandle?
    /// True for items an interceptor passed on later, from another thread: they were intercepted already.
    let skipsInterceptors: Bool
}

/// What waits to be handled, and the engine's life-cycle flags; guarded by the engine's inbox lock.
struct Inbox {
    var items: [Envelope] = []
    var isReady = false
    /// A drain block is on the updater queue and has not started yet.
    var drainScheduled = false
    /// Some thread is draining: the updater queue, or a thread waiting for one of its promises
    /// (see `StoreEngine.helpDrain(until:)`). Whoever sets it owns everything the engine keeps
    /// under "Drainer only" until it clears it.
    var isDraining = false
    /// The store was released while a drain was running: the drainer lets go of the interceptors
    /// when it finishes.
    var releasesChainAfterDrain = false
    var isShutDown = false
    /// Whether the store has listeners, so drains know whether to keep each change (kept here, next
    /// to the items, so that a drain learns it under the lock it takes anyway).
    var hasListeners = false
    /// Whether the store has interceptors (set once, before it becomes ready).
    var hasInterceptors = false
}

/// How many waiting items a thread blocked on a promise looks through for that promise's item
/// before it gives up helping and just waits.
private let helpingSearchLimit = 64

/// What the engine does after touching its inbox: nothing, start draining, or refuse (shut down).
private enum StoreEngineStep {
    case nothing, drain, reject
}

/// The machinery behind a store: its queue of dispatched items, the loop that drains it, the state
/// and the listeners. `PartialStore` and `Store` are thin public faces over one engine.
///
/// Items are handled one at a time, in order, by one drainer at a time: normally a block on the
/// store's serial queue; but a thread that blocks waiting for a dispatch promise whose item has not
/// been handled yet, while nothing is draining, handles the items up to and including that one
/// itself (as `DispatchQueue.sync` runs a block on the calling thread), instead of sleeping until
/// the queue's thread wakes up. The `isDraining` flag in the inbox makes the two exclusive.
///
/// The core loop, top to bottom: `enqueue` appends an item to the inbox and wakes the updater
/// queue if it is idle; `drain` takes every waiting item at once and, for each, runs the
/// interceptor chain (`process`) and then `handle`: state updaters are applied in place, side
/// effects are started on a concurrent queue or as tasks; at the end of each batch the state
/// changes are published to the listeners in one hop.
///
/// Ownership of mutable state:
/// - `inbox` (its own lock): waiting items, readiness, whether a drain is scheduled, shutdown.
/// - `published` (its own lock): the state storage, for readers on any thread.
/// - the state storage (its own lock): the state value; mutated only on the updater queue.
/// - `observers` (its own lock): listeners and state changes waiting to be delivered.
/// - everything under "Drainer only": the current drainer (see `Inbox.isDraining`); before the
///   store is ready, the updater queue.
final class StoreEngine<S: State>: ItemEnqueueing, @unchecked Sendable {
    // @unchecked: every mutable property is guarded as listed above (a lock, or the updater queue).

    /// A listener; a class so that delivery can call it through a borrowed reference (see
    /// `deliverChanges`).
    private final class Listener {
        let id: UInt64
        let call: @Sendable (S, S) -> Void
        let onShutdown: (@Sendable () -> Void)?

        init(id: UInt64, call: @escaping @Sendable (S, S) -> Void, onShutdown: (@Sendable () -> Void)?) {
            self.id = id
            self.call = call
            self.onShutdown = onShutdown
        }
    }

    private struct Observers {
        var listeners: [Listener] = []
        var nextID: UInt64 = 0
        /// Runs of changes waiting for delivery (see `StateChangeLog`).
        var pending: [[S]] = []
        /// Run buffers the delivery has emptied, on their way back to the drainer.
        var spareRuns: [[S]] = []
        var deliveryScheduled = false
    }

    /// The serial queue every state update, interceptor call and drain runs on.
    let updaterQueue: DispatchQueue
    private let sideEffectQueue = DispatchQueue.global()
    private let listenerExecutor: any Executor
    private let tracer: SignpostLogger?

    private let inbox = Locked(Inbox())
    /// This engine's number in ``EngineDirectory``.
    let directoryNumber: UInt64
    /// The state storage once the state initializer has run; nil before.
    let published = Locked<LockedStorage<S>?>(nil)
    private let observers = Locked(Observers())

    // Drainer only. Dispatching threads read only the constants above, so keep what the drainer
    // writes for every item out of them: a constant sharing a cache line with a field written per
    // item costs every dispatch a cache miss while the drainer runs on another core.
    private var storage: LockedStorage<S>?
    private var chain: StoreInterceptorNext?
    private var context: (any AnySideEffectContext)?
    private var sideEffects: SideEffectPool?
    private var current: Envelope?
    private var currentConsumed = false
    private var recordsChangesForCurrent = false
    private var changeLog = StateChangeLog<S>()
    /// Whether the state is still the last one `changeLog` recorded (kept out of the log, whose
    /// generic type costs a metadata look-up per access in this unspecialised class).
    private var changeLogContinues = false
    private var kinds: [ObjectIdentifier: ItemKind] = [:]
    /// An emptied batch buffer, handed back to the inbox at the next drain so appends reuse its
    /// capacity instead of growing a new array from one slot.
    private var spareBatch: [Envelope] = []
    private var lastKindType: ObjectIdentifier?
    private var lastKind = ItemKind.unsupported

    /// Above this many slots, a drained batch buffer is freed instead of kept for the next batch,
    /// so a burst does not pin its memory once it has settled.
    private static var retainedBatchCapacity: Int { 4096 }

    /// How many emptied run buffers of state changes are kept for reuse (see `StateChangeLog`).
    private static var retainedRunBuffers: Int { 16 }

    init(label: String, listenerExecutor: any Executor, tracer: SignpostLogger?) {
        self.updaterQueue = DispatchQueue(label: label)
        self.listenerExecutor = listenerExecutor
        self.tracer = tracer
        directoryNumber = EngineDirectory.newNumber()
        EngineDirectory.register(self, as: directoryNumber)
    }

    deinit {
        EngineDirectory.unregister(directoryNumber)
    }

    private var markerIdentity: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    // MARK: - Start-up

    /// Runs the start-up sequence: the state initializer on `executor`, then (on the updater queue)
    /// the interceptors, then readiness, after which waiting items are handled in order.
    func start(
        stateInitializer: @escaping @Sendable () -> S,
        interceptors: [StoreInterceptor],
        context: any AnySideEffectContext,
        executor: any Executor
    ) {
        executor.executeAsync {
            let storage = LockedStorage<S>.make(stateInitializer())
            self.published.withLock { $0 = storage }
            // Synchronous, so that with an immediate state initializer the store is ready when its
            // initialiser returns. No deadlock: nothing else can be running on this new queue yet
            // except a drain, and drains only start once the store is ready.
            self.updaterQueue.sync {
                // Interceptors are initialised on the store's queue: mark it, so a `wait` there
                // (which could never succeed before the store is ready) fails at once.
                StoreQueueMarker.set(self.markerIdentity)
                defer { StoreQueueMarker.set(nil) }
                self.storage = storage
                self.context = context
                self.sideEffects = SideEffectPool(context: context, tracer: self.tracer)
                if !interceptors.isEmpty {
                    // A plain loop rather than `reduce`: passing closures through generic code
                    // wraps each step of the chain in conversion thunks that every item pays for.
                    var next: StoreInterceptorNext = { item in self.receiveFromChain(item) }
                    for index in interceptors.indices.reversed() {
                        next = interceptors[index](context)(next)
                    }
                    self.chain = next
                }
            }
            let after: StoreEngineStep = self.inbox.withLock { inbox in
                guard !inbox.isShutDown else { return .reject }
                inbox.hasInterceptors = !interceptors.isEmpty
                inbox.isReady = true
                guard !inbox.items.isEmpty else { return .nothing }
                inbox.drainScheduled = true
                return .drain
            }
            switch after {
            case .nothing: break
            case .drain: self.updaterQueue.async { self.drainOnQueue() }
            case .reject: self.updaterQueue.async { self.releaseChain() }
            }
        }
    }

    /// Whether start-up has finished and items are being handled.
    var isReady: Bool {
        inbox.withLock { $0.isReady }
    }

    // MARK: - The core loop

    /// Adds an item to the inbox (a retried dispatch comes this way).
    func enqueue(_ item: any Dispatchable, settling promise: PromiseHandle) {
        enqueue(item, settling: promise, skippingInterceptors: false)
    }

    /// Adds an item to the inbox; wakes the updater queue if nothing is draining it.
    ///
    /// With `startingSideEffectWhenIdle` (the store's side-effect `dispatch` methods), a side effect
    /// dispatched to a store with no interceptors and nothing waiting or running on its queue is
    /// started right away from the calling thread: everything dispatched before it has been handled
    /// already, so it sees the same state it would after a hop through the queue.
    func enqueue(
        _ item: any Dispatchable,
        settling promise: PromiseHandle?,
        skippingInterceptors: Bool = false,
        startingSideEffectWhenIdle: Bool = false
    ) {
        let next: StoreEngineStep = inbox.withLock { inbox in
            if inbox.isShutDown { return .reject }
            if startingSideEffectWhenIdle, inbox.isReady, !inbox.hasInterceptors, !inbox.isDraining, inbox.items.isEmpty,
               startSideEffectWhileIdle(item, settling: promise) {
                return .nothing
            }
            inbox.items.append(Envelope(item: item, promise: promise, skipsInterceptors: skippingInterceptors))
            // A running drainer takes this item before it stops (the queue's loops until the inbox
            // is empty; a helping thread schedules the queue for what it leaves).
            guard inbox.isReady, !inbox.drainScheduled, !inbox.isDraining else { return .nothing }
            inbox.drainScheduled = true
            return .drain
        }
        switch next {
        case .nothing:
            break
        case .drain:
            updaterQueue.async { self.drainOnQueue() }
        case .reject:
            promise?.settle(erased: .failure(KatanaError.storeDeallocated(item: typeName(of: item))), replacing: item)
        }
    }

    /// Starts `item` if it is a side effect and returns true; returns false for anything else,
    /// which then goes into the inbox as usual (an updater must, and an item that cannot be handled
    /// is rejected by the drainer, so that its promise is not settled under the inbox lock).
    ///
    /// Called under the inbox lock while nothing is draining: no drainer can start until the lock
    /// is released, so the drainer's state (the kind cache, the side-effect pool) is the caller's.
    private func startSideEffectWhileIdle(_ item: any Dispatchable, settling promise: PromiseHandle?) -> Bool {
        // Both are set before the store is ready; checked so that nothing is settled under the lock.
        guard sideEffects != nil, context != nil else { return false }
        switch kind(of: item) {
        case .sideEffect(let runner):
            run(item, with: runner, settling: promise)
            return true
        case .asyncSideEffect(let runner):
            runAsync(item, with: runner, settling: promise)
            return true
        case .updater, .unsupported, .ambiguous:
            return false
        }
    }

    /// The updater queue's drain block: handles every waiting item, batch after batch, until the
    /// inbox is empty — unless a helping thread is draining, which then handles or reschedules them.
    private func drainOnQueue() {
        let owns: Bool = inbox.withLock { inbox in
            inbox.drainScheduled = false
            guard !inbox.isDraining, !inbox.isShutDown else { return false }
            inbox.isDraining = true
            return true
        }
        guard owns else { return }
        StoreQueueMarker.set(markerIdentity)
        defer { StoreQueueMarker.set(nil) }
        var batch = spareBatch
        spareBatch = []
        while true {
            let (hasWork, recordsChanges): (Bool, Bool) = inbox.withLock { inbox in
                guard !inbox.items.isEmpty else { return (false, false) }
                swap(&batch, &inbox.items)
                return (true, inbox.hasListeners)
            }
            guard hasWork else { break }
            handleBatch(batch, recordingChanges: recordsChanges)
            Self.empty(&batch)
        }
        spareBatch = batch
        finishDraining()
    }

    /// Called by a thread about to block on the promise identified by `promise`: when nothing is
    /// draining and that promise's item is among the first waiting items, handles the items up to
    /// and including it on this thread, so the promise settles without waking the updater queue.
    /// Items dispatched after it are left to the queue.
    func helpDrain(until promise: ObjectIdentifier) {
        var recordsChanges = false
        let owns: Bool = inbox.withLock { inbox in
            guard inbox.isReady, !inbox.isDraining, !inbox.isShutDown else { return false }
            recordsChanges = inbox.hasListeners
            let searched = inbox.items.prefix(helpingSearchLimit)
            guard let index = searched.firstIndex(where: { envelope in
                envelope.promise.map { ObjectIdentifier($0.core) == promise } ?? false
            }) else { return false }
            inbox.isDraining = true
            // This thread is the drainer from here on, so it may use the spare batch buffer.
            if index == inbox.items.count - 1 {
                swap(&spareBatch, &inbox.items)
            } else {
                spareBatch.append(contentsOf: inbox.items[...index])
                inbox.items.removeFirst(index + 1)
            }
            return true
        }
        guard owns else { return }
        StoreQueueMarker.set(markerIdentity)
        defer { StoreQueueMarker.set(nil) }
        var batch = spareBatch
        spareBatch = []
        handleBatch(batch, recordingChanges: recordsChanges)
        Self.empty(&batch)
        spareBatch = batch
        finishDraining()
    }

    /// Empties a handled batch's buffer for reuse, or frees it once it has grown past
    /// `retainedBatchCapacity`, so a burst does not pin its memory.
    private static func empty(_ batch: inout [Envelope]) {
        if batch.capacity > retainedBatchCapacity {
            batch = []
        } else {
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Runs one batch through the interceptors and handlers, then publishes its state changes.
    private func handleBatch(_ batch: [Envelope], recordingChanges: Bool) {
        for envelope in batch {
            process(envelope, recordingChanges: recordingChanges)
        }
        publishBatchChanges()
    }

    /// Gives up the drainer's role: schedules the updater queue for items that arrived meanwhile
    /// and no drainer took, and lets go of the interceptors if the store was released meanwhile.
    private func finishDraining() {
        let (schedules, releasesChain): (Bool, Bool) = inbox.withLock { inbox in
            inbox.isDraining = false
            let releasesChain = inbox.releasesChainAfterDrain
            inbox.releasesChainAfterDrain = false
            guard !inbox.items.isEmpty, inbox.isReady, !inbox.drainScheduled else { return (false, releasesChain) }
            inbox.drainScheduled = true
            return (true, releasesChain)
        }
        if releasesChain {
            // No drainer can start after shutdown, so this thread still has the engine to itself.
            releaseChain()
        }
        if schedules {
            updaterQueue.async { self.drainOnQueue() }
        }
    }

    /// Runs one item through the interceptors (when there are any) and handles it.
    private func process(_ envelope: Envelope, recordingChanges: Bool) {
        guard let chain, !envelope.skipsInterceptors else {
            handle(envelope.item, settling: envelope.promise, recordingChanges: recordingChanges)
            return
        }
        current = envelope
        currentConsumed = false
        recordsChangesForCurrent = recordingChanges
        defer { current = nil }
        do {
            try chain(envelope.item)
        } catch {
            if !currentConsumed {
                currentConsumed = true
                envelope.promise?.settle(erased: .failure(error), replacing: envelope.item)
            }
        }
        if !currentConsumed {
            settleBlocked(envelope)
        }
    }

    /// The end of the interceptor chain: the item an interceptor passed on reaches the store here.
    private func receiveFromChain(_ item: any Dispatchable) {
        guard StoreQueueMarker.current == markerIdentity else {
            // An interceptor called `next` later, from another thread: handle it in turn, without a promise.
            enqueue(item, settling: nil, skippingInterceptors: true)
            return
        }
        if let envelope = current, !currentConsumed {
            currentConsumed = true
            handle(item, settling: envelope.promise, recordingChanges: recordsChangesForCurrent)
        } else {
            // A second `next` call for the same item: handle it too; its outcome has no promise.
            handle(item, settling: nil, recordingChanges: recordsChangesForCurrent)
        }
    }

    /// An item no interceptor passed on: an updater "succeeds" with the state unchanged, anything
    /// else is rejected (its work never ran).
    private func settleBlocked(_ envelope: Envelope) {
        guard let promise = envelope.promise else { return }
        if case .updater = kind(of: envelope.item) {
            promise.settleDone(replacing: envelope.item)
        } else {
            promise.settle(erased: .failure(KatanaError.blockedByInterceptor(item: typeName(of: envelope.item))), replacing: envelope.item)
        }
    }

    /// How items of this item's type are handled (cached per type).
    private func kind(of item: any Dispatchable) -> ItemKind {
        let type = ObjectIdentifier(Swift.type(of: item))
        if type == lastKindType {
            return lastKind
        }
        let kind: ItemKind
        if let cached = kinds[type] {
            kind = cached
        } else {
            kind = ItemKind.classify(item, storeState: S.self)
            kinds[type] = kind
        }
        lastKindType = type
        lastKind = kind
        return kind
    }

    /// Handles an item as what it is: an updater is applied now, a side effect is started.
    private func handle(_ item: any Dispatchable, settling promise: PromiseHandle?, recordingChanges: Bool) {
        switch kind(of: item) {
        case .updater(let applier, let followsUp):
            apply(item, with: applier, followsUp: followsUp, settling: promise, recordingChanges: recordingChanges)
        case .sideEffect(let runner):
            run(item, with: runner, settling: promise)
        case .asyncSideEffect(let runner):
            runAsync(item, with: runner, settling: promise)
        case .unsupported:
            promise?.settle(erased: .failure(KatanaError.unsupportedDispatchable(item: typeName(of: item))), replacing: item)
        case .ambiguous:
            promise?.settle(erased: .failure(KatanaError.ambiguousDispatchable(item: typeName(of: item))), replacing: item)
        }
    }

    /// Applies an updater to the state in place, under the state lock.
    private func apply(
        _ item: any Dispatchable,
        with applier: ItemKind.StateApplier,
        followsUp: Bool,
        settling promise: PromiseHandle?,
        recordingChanges: Bool
    ) {
        guard let storage else {
            promise?.settle(erased: .failure(KatanaError.storeDeallocated(item: typeName(of: item))), replacing: item)
            return
        }
        let failure: KatanaError? = SignpostLogger.trace(tracer, item, kind: .stateUpdater) {
            if recordingChanges || followsUp {
                return applyKeepingChange(item, with: applier, to: storage, recordingChanges: recordingChanges, followsUp: followsUp)
            }
            // The hot path: nothing holds the old state, so the update mutates the only copy.
            // (No `S?` or `(S, S)` here: in this unspecialised generic code, each of those costs a
            // metadata look-up per item.)
            if changeLogContinues {
                changeLogContinues = false
            }
            return storage.withLock { state in
                withUnsafeMutablePointer(to: &state) { applier(item, UnsafeMutableRawPointer($0)) }
            }
        }
        if let failure {
            promise?.settle(erased: .failure(failure), replacing: item)
        } else {
            promise?.settleDone(replacing: item)
        }
    }

    /// Applies an updater while keeping the state before it, for the listeners and for a follow-up.
    private func applyKeepingChange(
        _ item: any Dispatchable,
        with applier: ItemKind.StateApplier,
        to storage: LockedStorage<S>,
        recordingChanges: Bool,
        followsUp: Bool
    ) -> KatanaError? {
        if recordingChanges, !followsUp, changeLogContinues {
            // The state before this change is already the last one recorded: no copy of it.
            return storage.withLock { state in
                let failure = withUnsafeMutablePointer(to: &state) { applier(item, UnsafeMutableRawPointer($0)) }
                if failure == nil {
                    changeLog.record(old: state, new: state, continuesRun: true)
                }
                return failure
            }
        }
        var change: (old: S, new: S)?
        let failure: KatanaError? = storage.withLock { state in
            let old = state
            let failure = withUnsafeMutablePointer(to: &state) { applier(item, UnsafeMutableRawPointer($0)) }
            if failure == nil {
                change = (old, state)
            }
            return failure
        }
        guard let change else { return failure }
        if recordingChanges {
            changeLog.record(old: change.old, new: change.new, continuesRun: changeLogContinues)
        }
        changeLogContinues = recordingChanges
        if followsUp, let followUp = item as? any FollowUpStateUpdater, let context {
            sideEffectQueue.async {
                followUp.followUp(previousState: change.old, currentState: change.new, context: context)
            }
        }
        return nil
    }

    /// Starts a synchronous side effect, concurrently with the others (see `SideEffectPool`).
    private func run(_ sideEffect: any Dispatchable, with runner: @escaping ItemKind.SideEffectRunner, settling promise: PromiseHandle?) {
        guard let sideEffects else {
            promise?.settle(erased: .failure(KatanaError.storeDeallocated(item: typeName(of: sideEffect))), replacing: sideEffect)
            return
        }
        sideEffects.submit(sideEffect, runner: runner, settling: promise)
    }

    /// Starts an async side effect as a task, from a side-effect worker (see `SideEffectPool`).
    private func runAsync(_ sideEffect: any Dispatchable, with runner: @escaping ItemKind.AsyncSideEffectRunner, settling promise: PromiseHandle?) {
        guard let context, let sideEffects else {
            promise?.settle(erased: .failure(KatanaError.storeDeallocated(item: typeName(of: sideEffect))), replacing: sideEffect)
            return
        }
        let tracer = self.tracer
        // Started from a side-effect worker rather than here: the body runs synchronously until
        // it first awaits, and the store's queue must not wait for that.
        sideEffects.submitStart {
            let interval = tracer?.begin(sideEffect, kind: .sideEffect)
            let outcome: Result<any Sendable, any Error>
            do {
                outcome = .success(try await runner(sideEffect, context))
            } catch {
                outcome = .failure(error)
            }
            if let tracer, let interval { tracer.end(interval) }
            promise?.settle(erased: outcome, replacing: sideEffect)
        }
    }

    // MARK: - State

    /// The current state. Reading it before the store is ready is a programming error (the one
    /// documented precondition).
    ///
    /// Read from inside one of this store's own state updaters (directly or through its context or
    /// dependencies), it returns the state as that updater has left it so far: the updater is
    /// changing it in place, on this thread, under the state lock, so taking the lock would deadlock.
    func readState() -> S {
        if StoreQueueMarker.current == markerIdentity, let storage {
            // This thread is the engine's drainer, the only thread that ever writes the state, so
            // reading it here without the lock races with nothing (other threads only read); and
            // inside an updater the lock is already held by this very thread. Updaters change the
            // state in place in the storage, so this is also the state as updated so far.
            return storage.withUnsafeMutablePointerToHeader { $0.pointee }
        }
        guard let storage = published.withLock({ $0 }) else {
            preconditionFailure(
                "Katana: the store's state was read before the store was ready. "
                    + "Check `isReady` first, or dispatch a side effect: it runs once the store is ready."
            )
        }
        return storage.withLock { $0 }
    }

    // MARK: - Listeners

    /// Adds a listener called with (old, new) after every handled state updater.
    func addListener(_ call: @escaping @Sendable (S, S) -> Void, onShutdown: (@Sendable () -> Void)? = nil) -> StoreUnsubscribe {
        let id: UInt64 = observers.withLock { observers in
            observers.nextID += 1
            observers.listeners.append(Listener(id: observers.nextID, call: call, onShutdown: onShutdown))
            inbox.withLock { $0.hasListeners = true }
            return observers.nextID
        }
        return { [weak self] in
            guard let self else { return }
            self.observers.withLock { observers in
                observers.listeners.removeAll { $0.id == id }
                let hasListeners = !observers.listeners.isEmpty
                self.inbox.withLock { $0.hasListeners = hasListeners }
            }
        }
    }

    /// Hands the batch's state changes to the listener executor, in one hop per batch.
    private func publishBatchChanges() {
        guard changeLog.hasChanges else { return }
        let runs = changeLog.takeRuns(continuesRun: changeLogContinues)
        var spare: [[S]] = []
        let shouldSchedule: Bool = observers.withLock { observers in
            observers.pending.append(contentsOf: runs)
            swap(&spare, &observers.spareRuns)
            guard !observers.deliveryScheduled else { return false }
            observers.deliveryScheduled = true
            return true
        }
        changeLog.addSpare(&spare, keepingAtMost: Self.retainedRunBuffers)
        if shouldSchedule {
            listenerExecutor.executeAsync { self.deliverChanges() }
        }
    }

    /// Calls every listener with every waiting change, in order; one delivery runs at a time, so
    /// listeners are never called concurrently even on a concurrent executor.
    private func deliverChanges() {
        var runs: [[S]] = []
        while true {
            let listeners: [Listener]? = observers.withLock { observers in
                guard !observers.pending.isEmpty else {
                    observers.deliveryScheduled = false
                    return nil
                }
                swap(&runs, &observers.pending)
                return observers.listeners
            }
            guard let listeners else { return }
            // Each call goes through a borrowed reference to its listener (kept alive by
            // `listeners`), whose closure is a `let`: no retain and release per call, which would
            // be most of the cost of a call.
            let borrowed = listeners.map { Unmanaged.passUnretained($0) }
            withExtendedLifetime(listeners) {
                for index in runs.indices {
                    runs[index].withUnsafeBufferPointer { states in
                        for change in states.indices.dropFirst() {
                            // Copied once per change: passed straight from the buffer, each
                            // call would copy both states.
                            let old = states[change - 1]
                            let new = states[change]
                            for listener in borrowed {
                                listener._withUnsafeGuaranteedRef { $0.call(old, new) }
                            }
                        }
                    }
                    runs[index].removeAll(keepingCapacity: true)
                }
            }
            observers.withLock { observers in
                let room = max(0, Self.retainedRunBuffers - observers.spareRuns.count)
                observers.spareRuns.append(contentsOf: runs.prefix(room))
            }
            runs.removeAll(keepingCapacity: true)
        }
    }

    // MARK: - Shutdown

    /// Called when the store is released: rejects every item still waiting, ends the state streams
    /// and lets go of the interceptors, so nothing leaks and no promise hangs.
    func shutdown() {
        let abandoned: [Envelope] = inbox.withLock { inbox in
            inbox.isShutDown = true
            inbox.isReady = false
            let items = inbox.items
            inbox.items = []
            return items
        }
        for envelope in abandoned {
            envelope.promise?.settle(
                erased: .failure(KatanaError.storeDeallocated(item: typeName(of: envelope.item))),
                replacing: envelope.item
            )
        }
        let finishers = observers.withLock { observers in
            let finishers = observers.listeners.compactMap(\.onShutdown)
            observers.listeners = []
            inbox.withLock { $0.hasListeners = false }
            return finishers
        }
        for finish in finishers {
            finish()
        }
        updaterQueue.async {
            let drainerWillRelease: Bool = self.inbox.withLock { inbox in
                guard inbox.isDraining else { return false }
                inbox.releasesChainAfterDrain = true
                return true
            }
            if !drainerWillRelease {
                self.releaseChain()
            }
        }
    }

    /// Lets go of the interceptors and the side-effect context; only while no drainer can run.
    private func releaseChain() {
        chain = nil
        context = nil
        sideEffects = nil
    }
}
