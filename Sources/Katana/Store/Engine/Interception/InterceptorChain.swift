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

    /// One run through the chain: receives what reaches the end of it on the run's thread.
    ///
    /// The first item to arrive settles the run's promise, once the run is over (every interceptor
    /// has returned); an interceptor that calls `next` again gets that item handled too, without a
    /// promise.
    final class Pass {
        fileprivate let chain: ObjectIdentifier
        private let handle: (Envelope) -> Settlement?
        /// The run's promise, until the first item passed on takes it.
        private var promise: PromiseHandle?
        /// The run's item's place in dispatch order, which what it passes on takes.
        private var sequence: UInt64 = 0
        fileprivate private(set) var passedOn = false
        /// The promise the run's handled item settles when the run is over: fulfilled as done
        /// (the common case, a state updater), or as ``pendingSettlement`` says.
        private var pendingPromise: PromiseHandle?
        private var pendingIsDone = false
        private var pendingSettlement: (settlement: Settlement, item: any Dispatchable)?

        /// A pass for runs of `chain` whose items go to `handle` (with the promise to settle, and
        /// marked as having been through the interceptors), which says how to settle the promise.
        init(for chain: InterceptorChain, handle: @escaping (Envelope) -> Settlement?) {
            self.chain = chain.identity
            self.handle = handle
        }

        fileprivate func begin(settling envelope: Envelope) {
            promise = envelope.promise
            sequence = envelope.sequence
            passedOn = false
        }

        fileprivate func receive(_ item: any Dispatchable) {
            // The first item passed on takes the run's promise (moved, not copied).
            var promise: PromiseHandle?
            if !passedOn {
                swap(&promise, &self.promise)
            }
            passedOn = true
            let settlement = handle(Envelope(item, promise: promise, skipsInterceptors: true, sequence: sequence))
            guard let promise else { return }
            switch consume settlement {
            case nil:
                return
            case .done? where promise.acceptsDone:
                pendingIsDone = true
            case let settlement?:
                pendingSettlement = (settlement, item)
            }
            pendingPromise = promise
        }

        /// Settles what this run handled, now that its interceptors have returned.
        fileprivate func end() {
            guard let promise = pendingPromise else { return }
            pendingPromise = nil
            if pendingIsDone {
                pendingIsDone = false
                promise.settleDone()
                return
            }
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
    /// its unique identity, made before the chain itself exists, which the chain's end captures).
    private let marker: Marker
    fileprivate var identity: ObjectIdentifier { ObjectIdentifier(marker) }

    /// An object with nothing in it, for its identity.
    private final class Marker: Sendable {}

    /// Starts `interceptors` for this store (each one's start, in order, with `context`) and
    /// connects the last of them to the store; an item passed on outside any run goes to `late`.
    init(
        _ interceptors: Interceptors,
        context: any AnySideEffectContext,
        late: @escaping @Sendable (Envelope) -> Void
    ) {
        let marker = Marker()
        let identity = ObjectIdentifier(marker)
        let end = InterceptorNext { item in
            if let pass = Self.currentPass, pass.chain == identity {
                pass.receive(item)
            } else {
                late(Envelope(item, promise: nil, skipsInterceptors: true))
            }
        }
        let started = interceptors.start(context)
        self.started = started
        entry = started(end).proceed
        self.marker = marker
    }

    /// Runs `envelope`'s item through every interceptor on the calling thread; what they pass on
    /// goes to `pass`, the first item with the envelope's promise, which is settled once every
    /// interceptor has returned.
    func run(_ envelope: Envelope, in pass: Pass) -> Verdict {
        let previous = Self.runs.replace(with: pass)
        defer { Self.runs.restore(previous) }
        return runInstalled(envelope, in: pass)
    }

    /// Makes `pass` the one that receives what reaches the end of the chain on this thread while
    /// `body` runs (items of `body` then go through ``runInstalled(_:in:)``).
    func installing<Result>(_ pass: Pass, _ body: () -> Result) -> Result {
        let previous = Self.runs.replace(with: pass)
        defer { Self.runs.restore(previous) }
        return body()
    }

    /// ``run(_:in:)``, for a pass already installed on this thread by ``installing(_:_:)``.
    func runInstalled(_ envelope: Envelope, in pass: Pass) -> Verdict {
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

    /// The pass of the run in progress on this thread, if any. A run keeps its pass alive for as
    /// long as the slot points to it.
    private static var currentPass: Pass? {
        runs.current
    }

    private static let runs = ThreadLocal<Pass>()
}
