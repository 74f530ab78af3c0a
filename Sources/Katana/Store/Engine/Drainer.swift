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
    let sideEffects: SideEffectPool
    /// The interceptors; nil without interceptors.
    let chain: InterceptorChain?
    /// The pass state updaters go through the chain with (one, reused: only the drainer runs them).
    private(set) var updaterPass: InterceptorChain.Pass?
    /// How each dispatched type is handled.
    let kinds = ItemKindCache()
    /// Applies updaters and keeps their changes for the listeners.
    let updates = UpdaterApplier<S>()
    /// Who hears about the changes of the batch being handled.
    var audience = Audience.nobody
    /// An emptied batch buffer, handed back to the inbox at the next batch so that appends reuse
    /// its capacity instead of growing a new array from one slot.
    var spareBatch: [Envelope] = []

    init(
        cell: StateCell<S>,
        context: any AnySideEffectContext,
        sideEffects: SideEffectPool,
        chain: InterceptorChain?,
        handle: @escaping (Envelope, Drainer<S>) -> Settlement?
    ) {
        self.cell = cell
        self.context = context
        self.sideEffects = sideEffects
        self.chain = chain
        // Unowned: the pass belongs to this drainer, and is used only while the drainer runs it.
        updaterPass = chain.map { chain in
            InterceptorChain.Pass(for: chain) { [unowned self] envelope in handle(envelope, self) }
        }
    }

    /// Items handled since the last report to ``MemoryRelease``.
    private var handledSinceReport = 0

    /// Counts `count` handled items, and reports them to ``MemoryRelease`` once they are many
    /// (small drains add up without a report, which takes a process-wide lock).
    func reportHandled(_ count: Int) {
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

    /// How items of `item`'s type are handled.
    func kind(of item: any Dispatchable) -> ItemKind {
        kinds.kind(of: item, storeState: S.self)
    }
}
