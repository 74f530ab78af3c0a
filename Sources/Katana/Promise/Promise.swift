import Dispatch

/// The eventual result of an asynchronous operation: fulfilled with a value or rejected with an error.
///
/// Every dispatch returns one. A promise is thread-safe and settles exactly once; callbacks
/// registered with ``then(in:_:)-(_,(Value)->N)``, ``catch(in:_:)``, ``always(in:_:)`` and friends run
/// on the queue they name (a global queue by default), so they never run on a store's updater queue.
public struct Promise<Value: Sendable>: @unchecked Sendable {
    // @unchecked: the only stored property is the core, whose state is only reached through its lock.
    typealias Outcome = Result<Value, any Error>
    typealias Callback = @Sendable (Outcome) -> Void

    /// Where a promise is in its life: waiting (with the callbacks to run), or settled.
    enum Phase {
        case pending([Callback])
        case settled(Outcome)
    }

    /// The work behind a promise, which ``retry(_:)`` runs again.
    enum Work {
        /// A promise created settled: nothing to run again.
        case none
        /// A closure that starts the work again and returns its new promise.
        case closure(@Sendable () -> Promise<Value>)
        /// A dispatch: the item, sent again to the same store. Kept inline (no closure to
        /// allocate), because every dispatch carries one.
        case dispatch(DispatchWork)
        /// A promise made from promises of one store (by `then`, `recover`, `retry`, `all`, …): the
        /// closure that makes it again, and that store's engine number, so Katana 3.x's
        /// `thenDispatch` further down a chain still knows where to dispatch. A number, never a
        /// reference: the chain does not keep the store alive.
        case derived(@Sendable () -> Promise<Value>, engineNumber: UInt64)

        /// The number of the store engine this work came from, if any.
        var engineNumber: UInt64? {
            switch self {
            case .dispatch(let dispatch):
                return dispatch.engineNumber
            case .derived(_, let engineNumber):
                return engineNumber
            case .none, .closure:
                return nil
            }
        }
    }

    /// What the promise's lock guards.
    struct Storage {
        var phase: Phase
        let work: Work
        /// What the store's dispatch context captured for the item this promise settles (see
        /// ``PromiseHandle/dispatchContext``); nil in a store without one.
        var dispatchContext: CapturedContext? = nil
    }

    /// The promise's only allocation: its storage and lock. The store keeps it (type-erased) next
    /// to each dispatched item, to settle it once the item is handled.
    let core: PromiseCore<Value>

    fileprivate init(phase: Phase, work: Work) {
        core = PromiseCore<Value>.make(Storage(phase: phase, work: work))
    }

    init(core: PromiseCore<Value>) {
        self.core = core
    }

    /// A promise that is already fulfilled with `value`.
    public init(resolved value: Value) {
        self.init(phase: .settled(.success(value)), work: .none)
    }

    /// A promise that is already rejected with `error`.
    public init(rejected error: any Error) {
        self.init(phase: .settled(.failure(error)), work: .none)
    }

    /// A promise settled by `body`, which receives the functions that fulfil and reject it.
    ///
    /// The body runs right away on the calling thread, or asynchronously on `queue` when one is
    /// given. If it throws, the promise is rejected with that error. ``retry(_:)`` runs it again.
    public init(
        in queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (
            _ resolve: @escaping @Sendable (Value) -> Void,
            _ reject: @escaping @Sendable (any Error) -> Void
        ) throws -> Void
    ) {
        self.init(phase: .pending([]), work: .closure { Promise(in: queue, body) })
        let promise = self
        let run: @Sendable () -> Void = {
            do {
                try body({ promise.resolve($0) }, { promise.reject($0) })
            } catch {
                promise.reject(error)
            }
        }
        if let queue {
            queue.async(execute: run)
        } else {
            run()
        }
    }

    /// A promise settled by an async operation, which runs as a task; ``retry(_:)`` runs it again,
    /// and ``cancel()`` cancels the task.
    public init(operation: @escaping @Sendable () async throws -> Value) {
        self.init(phase: .pending([]), work: .closure { Promise(operation: operation) })
        let promise = self
        let task = Task {
            do {
                promise.resolve(try await operation())
            } catch {
                promise.reject(error)
            }
        }
        onCancel { task.cancel() }
    }

    /// A promise that waits to be settled by the package itself.
    static func pending(rerun: (@Sendable () -> Promise<Value>)? = nil) -> Promise<Value> {
        Promise(phase: .pending([]), work: rerun.map { .closure($0) } ?? .none)
    }

    /// A promise made from other promises, which `rerun` makes again; it keeps the store those
    /// promises came from when `engineNumber` names one (see ``storeEngineNumber``).
    static func pending(
        rerun: @escaping @Sendable () -> Promise<Value>,
        fromEngineNumbered engineNumber: UInt64?
    ) -> Promise<Value> {
        guard let engineNumber else {
            return Promise(phase: .pending([]), work: .closure(rerun))
        }
        return Promise(phase: .pending([]), work: .derived(rerun, engineNumber: engineNumber))
    }

    /// A promise for `item`, dispatched to the engine with this number in ``EngineDirectory``: a
    /// retry dispatches the item there again.
    static func pending(dispatching item: any Dispatchable, toEngineNumbered engineNumber: UInt64) -> Promise<Value> {
        if Value.self == Void.self {
            // Made by code for `Void`, even when the caller is generic over the value type
            // (docs/PERFORMANCE.md, "Side effects: no-op AsyncSideEffect").
            return Unsafe.cast(Promise<Void>.voidPending(dispatching: item, toEngineNumbered: engineNumber), to: Promise<Value>.self)
        }
        return genericPending(dispatching: item, toEngineNumbered: engineNumber)
    }

    @inline(never)
    private static func genericPending(dispatching item: any Dispatchable, toEngineNumbered engineNumber: UInt64) -> Promise<Value> {
        Promise(core: PromiseCore<Value>.make {
            Storage(phase: .pending([]), work: .dispatch(DispatchWork(item: item, engineNumber: engineNumber)))
        })
    }

    // MARK: - Settling

    /// Fulfils the promise; returns false (and changes nothing) if it was already settled.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        settle(.success(value))
    }

    /// Rejects the promise; returns false (and changes nothing) if it was already settled.
    @discardableResult
    func reject(_ error: any Error) -> Bool {
        settle(.failure(error))
    }

    /// Settles the promise once and runs the waiting callbacks, in registration order, on this thread.
    @discardableResult
    func settle(_ outcome: Outcome) -> Bool {
        let callbacks: [Callback]? = core.withLock { storage in
            guard case .pending(let callbacks) = storage.phase else { return nil }
            storage.phase = .settled(outcome)
            return callbacks
        }
        guard let callbacks else { return false }
        for callback in callbacks {
            callback(outcome)
        }
        return true
    }

    /// Runs `callback` with the outcome on the thread that settles the promise (right away if it
    /// already has). Only for the package's own short, non-blocking bookkeeping.
    func observe(_ callback: @escaping Callback) {
        let settled: Outcome? = core.withLock { storage in
            switch storage.phase {
            case .pending(var callbacks):
                storage.phase = .pending([])  // drop our reference so the append does not copy
                callbacks.append(callback)
                storage.phase = .pending(callbacks)
                return nil
            case .settled(let outcome):
                return outcome
            }
        }
        if let settled {
            callback(settled)
        }
    }

    /// If this is a dispatch promise whose item is still waiting in an idle store, handles the item
    /// (and the items before it) on the calling thread, so a thread about to block for the outcome
    /// does not wait for the store's queue to wake up. Does nothing otherwise.
    func helpSettle() {
        guard case .dispatch(let work) = core.withLock({ $0.work }), let engine = work.engine else { return }
        engine.helpDrain(until: ObjectIdentifier(core))
    }

    /// The outcome if the promise has settled, nil while it is pending.
    var outcome: Outcome? {
        core.withLock { storage in
            if case .settled(let outcome) = storage.phase { return outcome }
            return nil
        }
    }

    /// Whether the promise has not settled yet.
    public var isPending: Bool {
        outcome == nil
    }

    /// Starts the work behind this promise again, or nil when there is none.
    var rerun: (@Sendable () -> Promise<Value>)? {
        switch core.withLock({ $0.work }) {
        case .none:
            return nil
        case .closure(let closure), .derived(let closure, _):
            return closure
        case .dispatch(let dispatch):
            return { dispatch.redispatch() }
        }
    }

    /// The number, in ``EngineDirectory``, of the store engine this promise comes from: the one
    /// its item was dispatched to, or the one shared by the promises it was made from; nil when
    /// it never came from a store.
    var storeEngineNumber: UInt64? {
        core.withLock { $0.work.engineNumber }
    }

    /// A fresh run of the work behind this promise, or this promise when there is no work to re-run.
    func restarted() -> Promise<Value> {
        rerun?() ?? self
    }
}

extension Promise where Value == Void {
    /// ``pending(dispatching:toEngineNumbered:)`` for a `Promise<Void>`.
    static func voidPending(dispatching item: any Dispatchable, toEngineNumbered engineNumber: UInt64) -> Promise<Void> {
        Promise(core: PromiseCore<Void>.make {
            Storage(phase: .pending([]), work: .dispatch(DispatchWork(item: item, engineNumber: engineNumber)))
        })
    }
}

/// The store engine number that every one of `numbers` names, or nil when one names none or two
/// differ: a promise combined from promises of one store keeps that store, from several (or none)
/// it has none.
func sharedEngineNumber(_ numbers: some Sequence<UInt64?>) -> UInt64? {
    var shared: UInt64?
    for number in numbers {
        guard let number, shared == nil || shared == number else { return nil }
        shared = number
    }
    return shared
}
