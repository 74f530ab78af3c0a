/// Everything only the drainer touches: the thread that holds the right to drain the store's inbox
/// (see ``DrainStateMachine``). Created when the store becomes ready, handed from thread to thread
/// inside that right, and let go when the store is released.
///
/// Not thread-safe, and it needs no lock: at any moment at most one thread holds it.
final class Drainer<S: State> {
    /// The state; readers on other threads go through its lock.
    let cell: StateCell<S>
    /// What side effects and interceptors receive.
    let context: any AnySideEffectContext
    /// Runs side effects (and their interceptor chains) concurrently.
    let sideEffects: SideEffectRunner
    /// Where the store's shutdown is, read before and after each item.
    let shutdown: ShutdownSignal
    /// What the drainer counted for a shutdown (read by the shutdown once the drainer is idle).
    var shutdownCounts = DrainerShutdownCounts()
    /// The interceptors; nil without interceptors.
    let chain: InterceptorChain?
    /// ``chain``, for the runs of state updaters: borrowed, as ``chain`` holds it.
    private let chainReference: Unmanaged<InterceptorChain>?
    /// How each dispatched type is handled.
    let kinds: ItemKindCache
    /// Applies updaters and keeps their changes for the listeners.
    let updates: UpdaterApplier<S>
    /// Who hears about the changes of the batch being handled.
    var audience = Audience.nobody
    /// How many synchronous side effects got their entry in place, while the store was idle (see
    /// ``addSynchronousSideEffect(_:settling:sequence:leaving:)``).
    private(set) var takenInPlace = 0
    /// An emptied batch buffer, handed back to the inbox at the next batch so that appends reuse
    /// its capacity instead of growing a new array from one slot.
    private var spareBatch: [Envelope] = []

    init(
        cell: StateCell<S>,
        context: any AnySideEffectContext,
        sideEffects: SideEffectRunner,
        shutdown: ShutdownSignal,
        chain: InterceptorChain?,
        releasesMemoryAfterBursts: Bool
    ) {
        self.releasesMemoryAfterBursts = releasesMemoryAfterBursts
        self.cell = cell
        self.context = context
        kinds = ItemKindCache(context: context)
        self.sideEffects = sideEffects
        self.shutdown = shutdown
        self.chain = chain
        chainReference = chain.map { Unsafe.unretained($0) }
        updates = UpdaterApplier(dispatchContext: sideEffects.dispatchContext)
    }

    /// Calls `body` with the interceptor chain, without taking a reference to it; nil without
    /// interceptors.
    @inline(__always)
    func withChain<Result>(_ body: (InterceptorChain?) -> Result) -> Result {
        guard let chainReference else { return body(nil) }
        return Unsafe.borrow(chainReference, body)
    }

    /// Items handled since the last report to ``MemoryRelease``.
    private var handledSinceReport = 0
    /// Whether the store reports what it handled to ``MemoryRelease``.
    private let releasesMemoryAfterBursts: Bool

    /// Above this many slots, a drained batch buffer is freed instead of kept for the next batch,
    /// so a burst does not pin its memory.
    static var retainedBatchCapacity: Int { SegmentedQueue<Envelope>.spareCapacityLimit }

    /// Counts `count` handled items, and reports them to ``MemoryRelease`` once they are many
    /// (small drains add up without a report, which takes a process-wide lock).
    func reportHandled(_ count: Int) {
        guard releasesMemoryAfterBursts else { return }
        handledSinceReport += count
        guard handledSinceReport >= SegmentedQueue<Envelope>.segmentCapacity else { return }
        MemoryRelease.handled(handledSinceReport)
        handledSinceReport = 0
    }

    /// Takes the spare batch buffer (empty, with its capacity).
    func takeSpareBatch() -> [Envelope] {
        var batch: [Envelope] = []
        swap(&batch, &spareBatch)
        return batch
    }

    /// Keeps an emptied batch buffer for the next drain.
    func keepSpareBatch(_ batch: [Envelope]) {
        spareBatch = batch
    }

    /// Empties a handled batch's buffer for reuse, or frees it once it has grown past
    /// ``retainedBatchCapacity``.
    func empty(_ batch: inout [Envelope]) {
        if batch.capacity > Self.retainedBatchCapacity {
            batch = []
        } else {
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Runs `body` with the updaters' interceptor pass installed on this thread (once for many
    /// items, rather than once per item), when there are interceptors.
    func withPassInstalled(_ body: () -> Void) {
        guard let chain else {
            body()
            return
        }
        chain.installingDrainerPass(body)
    }

    /// How items of `item`'s type are handled.
    func kind(of item: any Dispatchable) -> ItemKind {
        kinds.kind(of: item, storeState: S.self)
    }

    /// Calls `body` with what the kind cache knows about `item`'s type, read in place.
    @inline(__always)
    func withKindEntry<Result>(of item: any Dispatchable, _ body: (ItemKindCache.Entry) -> Result) -> Result {
        kinds.withEntry(of: item, storeState: S.self, body)
    }

    /// Gives a synchronous side effect dispatched to an idle store its entry in the side-effect
    /// registry, on the dispatching thread under the inbox's lock (its interceptors and body run on
    /// its worker, and making its entry runs none of its code); returns false, doing nothing, for
    /// anything else, once a shutdown cancels what is left, or when the registry would not take
    /// it as it is (see ``SideEffectRunner/addInPlace(_:running:leaving:)``). Its envelope is
    /// made here, for its job to take as it is, rather than made by the caller and copied.
    func addSynchronousSideEffect(
        _ item: any Dispatchable, settling promise: PromiseHandle, sequence: UInt64, leaving after: inout SideEffectRunner.AfterInPlace
    ) -> Bool {
        guard shutdown.phase != .cancelling else { return false }
        return withKindEntry(of: item) { entry in
            guard let runner = entry.sideEffect,
                  sideEffects.addInPlace(Envelope(item, promise: promise, sequence: sequence), running: runner, leaving: &after)
            else { return false }
            takenInPlace += 1
            return true
        }
    }

    /// Hands a side effect dispatched to an idle store straight to the side-effect registry
    /// (its interceptors run on its worker, and it changes no state here, so there is no
    /// updaters' pass to install and nothing to publish); returns false, doing nothing, for
    /// anything else and once a shutdown cancels what is left (docs/PERFORMANCE.md, "Side
    /// effects: no-op AsyncSideEffect").
    func submitSideEffect(_ envelope: Envelope) -> Bool {
        guard shutdown.phase != .cancelling else { return false }
        switch kind(of: envelope.item) {
        case .asyncSideEffect(let runner):
            sideEffects.submit(envelope, starting: runner)
        case .sideEffect(let runner):
            sideEffects.submit(envelope, running: runner)
        case .updater, .unsupported, .ambiguous:
            return false
        }
        return true
    }
}
