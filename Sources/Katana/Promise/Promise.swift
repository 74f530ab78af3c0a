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

    /// What the promise's lock guards.
    struct Storage {
        var phase: Phase
        /// Re-runs the work that produced this promise, for ``retry(_:)``; nil when there is none.
        let rerun: (@Sendable () -> Promise<Value>)?
    }

    /// The promise's only allocation: its storage and lock. The store keeps it (type-erased) next
    /// to each dispatched item, to settle it once the item is handled.
    let core: PromiseCore<Value>

    private init(phase: Phase, rerun: (@Sendable () -> Promise<Value>)?) {
        core = PromiseCore<Value>.make(Storage(phase: phase, rerun: rerun))
    }

    init(core: PromiseCore<Value>) {
        self.core = core
    }

    /// A promise that is already fulfilled with `value`.
    public init(resolved value: Value) {
        self.init(phase: .settled(.success(value)), rerun: nil)
    }

    /// A promise that is already rejected with `error`.
    public init(rejected error: any Error) {
        self.init(phase: .settled(.failure(error)), rerun: nil)
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
        let rerun: @Sendable () -> Promise<Value> = { Promise(in: queue, body) }
        self.init(phase: .pending([]), rerun: rerun)
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

    /// A promise settled by an async operation, which runs as a task; ``retry(_:)`` runs it again.
    public init(operation: @escaping @Sendable () async throws -> Value) {
        let rerun: @Sendable () -> Promise<Value> = { Promise(operation: operation) }
        self.init(phase: .pending([]), rerun: rerun)
        let promise = self
        Task {
            do {
                promise.resolve(try await operation())
            } catch {
                promise.reject(error)
            }
        }
    }

    /// A promise that waits to be settled by the package itself.
    static func pending(rerun: (@Sendable () -> Promise<Value>)? = nil) -> Promise<Value> {
        Promise(phase: .pending([]), rerun: rerun)
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

    var rerun: (@Sendable () -> Promise<Value>)? {
        core.withLock { $0.rerun }
    }

    /// A fresh run of the work behind this promise, or this promise when there is no work to re-run.
    func restarted() -> Promise<Value> {
        rerun?() ?? self
    }
}
