/// A store's interceptors, composed once into one chain and kept, with everything they capture,
/// for as long as the store lives.
///
/// The chain runs on whichever thread handles the item: the drainer for state updaters (and for
/// items that are neither updater nor side effect), a side-effect worker for side effects, so
/// several runs may be in progress at once. Each run goes through a ``Pass``, which the run puts
/// in a thread-local slot: what an interceptor passes on synchronously reaches the pass of the
/// run on its own thread, and settles the item's promise; what an interceptor passes on later,
/// from elsewhere, reaches `late` and is handled in turn, without a promise.
final class InterceptorChain: @unchecked Sendable {
    // @unchecked: every stored property is a constant.

    /// How a run ended.
    enum Verdict {
        /// An interceptor passed the item (or a replacement) on: it was handled.
        case passedOn
        /// No interceptor passed it on: it is blocked.
        case blocked
        /// An interceptor threw before passing it on: it is rejected with the error.
        case rejected(any Error)
    }

    /// Handles an item passed on to the store: the item, the promise its outcome settles (if it
    /// is the first of its run, carrying the run's dispatch context), and its place in dispatch
    /// order; says how to settle the promise, or nil when something else settles it.
    typealias Receiver = (_ item: any Dispatchable, _ promise: PromiseHandle?, _ sequence: UInt64) -> Settlement?

    /// One run through the chain: receives what reaches the end of it on the run's thread.
    ///
    /// The first item to arrive settles the run's promise, once the run is over (every interceptor
    /// has returned); an interceptor that calls `next` again gets that item handled too, without a
    /// promise.
    final class Pass: @unchecked Sendable {
        // @unchecked: a pass is touched only by the thread whose slot holds it (the chain's end
        // looks at the pass in its own thread's slot), and by the run that put it there.
        fileprivate let chain: ObjectIdentifier
        private let handle: Receiver
        /// The run's promise, which the first item passed on settles once the run is over.
        private var promise: PromiseHandle?
        /// The run's item's place in dispatch order, which what it passes on takes.
        private var sequence: UInt64 = 0
        /// Where the run's item comes from.
        private var origin = OriginStamp.outside
        /// The run's item's dispatch context, which an interceptor may replace; what the item (or
        /// its replacement) carries on.
        fileprivate(set) var context: CapturedContext?
        /// Whether the store has a dispatch context: only then does a run read and pass on one.
        private let carriesContext: Bool
        /// Whether a run is in progress (between ``begin(settling:)`` and ``end()``).
        private var running = false
        fileprivate private(set) var passedOn = false
        /// Whether the first item passed on fulfils the promise as done (the common case, a state
        /// updater); otherwise ``pendingSettlement`` says how it settles, if it is this pass's to.
        private var pendingIsDone = false
        private var pendingSettlement: (settlement: Settlement, item: any Dispatchable)?

        /// A pass for runs of `chain` whose items go to `handle` (with the promise to settle, and
        /// marked as having been through the interceptors), which says how to settle the promise.
        convenience init(for chain: InterceptorChain, handle: @escaping (Envelope) -> Settlement?) {
            self.init(chain: chain.identity, carriesContext: chain.carriesContext) { item, promise, sequence in
                handle(Envelope(item, promise: promise, skipsInterceptors: true, sequence: sequence))
            }
        }

        fileprivate init(chain: ObjectIdentifier, carriesContext: Bool, handle: @escaping Receiver) {
            self.carriesContext = carriesContext
            self.chain = chain
            self.handle = handle
        }

        @inline(__always)
        fileprivate func begin(settling envelope: Envelope) {
            promise = envelope.promise
            sequence = envelope.sequence
            origin = envelope.origin
            if carriesContext {
                takeContext(of: envelope)
            }
            passedOn = false
            running = true
        }

        /// Reads the run's dispatch context, in a store that has one: apart, so that a run in a
        /// store without one does not set up what this needs.
        @inline(never)
        private func takeContext(of envelope: Envelope) {
            context = envelope.context
        }

        /// Whether a run is in progress.
        fileprivate var isRunning: Bool {
            running
        }

        /// Whether the run's item has been passed on so far; nil between runs.
        fileprivate var reachedStore: Bool? {
            running ? passedOn : nil
        }

        /// The run's item as an interceptor sees it; nil between runs.
        fileprivate var intercepted: InterceptedItem? {
            running ? InterceptedItem(origin: origin.origin, sequence: sequence, hasReachedStore: passedOn) : nil
        }

        @inline(__always)
        fileprivate func receive(_ item: any Dispatchable) {
            guard !passedOn else {
                // A later item is handled too, without a promise.
                _ = handle(item, nil, sequence)
                return
            }
            passedOn = true
            // Lent from a local, which nothing else can change meanwhile: not copied.
            var promise: PromiseHandle?
            swap(&promise, &self.promise)
            // Two calls rather than one with a conditional argument, which would copy the promise
            // (a retain and a release) in a store without a dispatch context too.
            let settlement: Settlement?
            if carriesContext {
                settlement = handle(item, promise?.carrying(context), sequence)
            } else {
                settlement = handle(item, promise, sequence)
            }
            switch consume settlement {
            case nil:
                // Settled elsewhere (after the listeners, or by a side effect).
                return
            case .done? where promise?.acceptsDone == true:
                pendingIsDone = true
            case let settlement?:
                pendingSettlement = (settlement, item)
            }
            self.promise = promise
        }

        /// Settles what this run handled, now that its interceptors have returned; lets the
        /// promise go either way (a run that passed nothing on is settled by its caller).
        @inline(__always)
        fileprivate func end() {
            running = false
            var promise: PromiseHandle?
            swap(&promise, &self.promise)
            if pendingIsDone {
                pendingIsDone = false
                promise?.settleDone()
            } else if pendingSettlement != nil {
                settlePending(promise)
            }
        }

        /// Settles `promise` as the run's item's handling said, when that was not plain "done":
        /// apart from ``end()``, which every run takes.
        @inline(never)
        private func settlePending(_ promise: consuming PromiseHandle?) {
            guard let pending = pendingSettlement else { return }
            pendingSettlement = nil
            Envelope(pending.item, promise: promise).settle(pending.settlement)
        }
    }

    /// The store's started copy of its interceptors, kept so that the interceptors (and everything
    /// their closures capture, even what only an outer closure does) live as long as the store.
    private let started: @Sendable (InterceptorNext) -> InterceptorNext
    /// The entry of the joined chain. A constant, so a run calls it without retaining it.
    private let entry: StoreInterceptorNext
    /// What tells this chain's passes from other chains' on the same thread (an object kept for
    /// its unique identity, made before the chain itself exists; every pass of the chain carries it).
    private let marker: Marker
    fileprivate var identity: ObjectIdentifier { ObjectIdentifier(marker) }
    /// The pass of the store's drainer, for the runs of state updaters (one drainer at a time, so
    /// one pass). The chain's end holds it too, and recognises it without taking a reference.
    private let drainerPass: Pass
    /// Whether the store has a dispatch context, whose value runs read and pass on.
    let carriesContext: Bool

    /// An object with nothing in it, for its identity.
    private final class Marker: Sendable {}

    /// Starts `interceptors` for this store (each one's start, in order, with `context`) and
    /// connects the last of them to the store: what the drainer's runs pass on goes to
    /// `drainerHandle` (see ``Pass``), and an item passed on outside any run goes to `late`. With
    /// `carriesContext` (the store has a dispatch context), runs read their item's context and
    /// pass it on with what they pass on.
    init(
        _ interceptors: Interceptors,
        context: any AnySideEffectContext,
        carriesContext: Bool,
        drainerHandle: @escaping Receiver,
        late: @escaping @Sendable (Envelope) -> Void
    ) {
        let marker = Marker()
        let identity = ObjectIdentifier(marker)
        self.carriesContext = carriesContext
        let drainerPass = Pass(chain: identity, carriesContext: carriesContext, handle: drainerHandle)
        // Two captures only: each one is loaded on every call.
        let end = InterceptorNext { [drainerPass] item in
            // The drainer's pass is recognised by its address, and called through the reference
            // this closure holds: the common case takes no reference and opens no existential.
            let runs = Self.runs
            if runs.currentPointer == Unsafe.opaque(drainerPass) {
                drainerPass.receive(item)
                return
            }
            if let pass = runs.current, pass.chain == drainerPass.chain {
                pass.receive(item)
            } else {
                late(Envelope(item, promise: nil, skipsInterceptors: true))
            }
        }
        let started = interceptors.start(context)
        self.started = started
        entry = started(end).proceed
        self.marker = marker
        self.drainerPass = drainerPass
    }

    /// Runs `envelope`'s item through every interceptor on the calling thread; what they pass on
    /// goes to `pass`, the first item with the envelope's promise, which is settled once every
    /// interceptor has returned.
    func run(_ envelope: Envelope, in pass: Pass) -> Verdict {
        let previous = Self.runs.replace(with: pass)
        defer { Self.runs.restore(previous) }
        return runInstalled(envelope, in: pass)
    }

    /// Makes the drainer's pass the one that receives what reaches the end of the chain on this
    /// thread while `body` runs, which hands state updaters to ``runOnDrainer(_:)``.
    func installingDrainerPass<Result>(_ body: () -> Result) -> Result {
        let previous = Self.runs.replace(with: drainerPass)
        defer { Self.runs.restore(previous) }
        return body()
    }

    /// Runs a state updater (or an item that is neither updater nor side effect) through the chain
    /// on the drainer's thread, inside ``installingDrainerPass(_:)``.
    func runOnDrainer(_ envelope: Envelope) -> Verdict {
        runInstalled(envelope, in: drainerPass)
    }

    /// ``run(_:in:)``, for a pass already in this thread's slot.
    private func runInstalled(_ envelope: Envelope, in pass: Pass) -> Verdict {
        pass.begin(settling: envelope)
        defer { pass.end() }
        do {
            try entry(envelope.item)
        } catch {
            // Thrown after passing the item on: it was handled, and its promise settles with that.
            return pass.passedOn ? .passedOn : .rejected(error)
        }
        return pass.passedOn ? .passedOn : .blocked
    }

    /// The item of the run in progress on this thread, if any (see ``InterceptedItem/current``).
    static var currentRun: InterceptedItem? {
        runs.current?.intercepted
    }

    /// The dispatch context of the run in progress on this thread; nil outside a run, or without one.
    static var currentRunContext: (any Sendable)? {
        guard let pass = runs.current, pass.isRunning else { return nil }
        return pass.context?.value
    }

    /// Replaces the dispatch context of the run in progress on this thread; false outside a run.
    static func replaceCurrentRunContext(with value: (any Sendable)?) -> Bool {
        guard let pass = runs.current, pass.isRunning else { return false }
        pass.context = value.map(CapturedContext.init)
        return true
    }

    /// Whether the run in progress on this thread has passed its item on so far; nil outside a run.
    static var currentRunHasReachedStore: Bool? {
        runs.current?.reachedStore
    }

    /// The thread's slot for the run in progress (a constant: made where it is read).
    private static var runs: ThreadLocal<Pass> {
        ThreadLocal(.interceptorRun)
    }
}
