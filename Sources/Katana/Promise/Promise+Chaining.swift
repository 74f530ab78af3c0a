import Dispatch

extension Promise {
    /// Transforms the value once the promise is fulfilled; a thrown error rejects the result.
    @discardableResult
    public func then<NewValue: Sendable>(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (Value) throws -> NewValue
    ) -> Promise<NewValue> {
        continued(rerun: { $0.then(in: queue, body) }) { outcome, next in
            switch outcome {
            case .success(let value):
                Self.step(on: queue, rejecting: next) { next.resolve(try body(value)) }
            case .failure(let error):
                next.reject(error)
            }
        }
    }

    /// Chains another asynchronous step once the promise is fulfilled; the result settles with that step.
    @discardableResult
    public func then<NewValue: Sendable>(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (Value) throws -> Promise<NewValue>
    ) -> Promise<NewValue> {
        continued(rerun: { $0.then(in: queue, body) }) { outcome, next in
            switch outcome {
            case .success(let value):
                Self.step(on: queue, rejecting: next) { try body(value).observe { next.settle($0) } }
            case .failure(let error):
                next.reject(error)
            }
        }
    }

    /// Runs `body` with the value once the promise is fulfilled and passes the same value on (Hydra's
    /// `then` for a body that returns nothing); a thrown error rejects the result.
    ///
    /// This is the overload a multi-line body without `return` picks, so
    /// `promise.then { value in log(value); show(value) }.then { value in … }` still sees the value.
    @discardableResult
    public func then(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value> {
        passingValue(in: queue, body)
    }

    /// The body of the `Void` `then`, under a name that overload resolution cannot confuse.
    private func passingValue(
        in queue: DispatchQueue,
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value> {
        continued(rerun: { $0.passingValue(in: queue, body) }) { outcome, next in
            switch outcome {
            case .success(let value):
                Self.step(on: queue, rejecting: next) {
                    try body(value)
                    next.resolve(value)
                }
            case .failure(let error):
                next.reject(error)
            }
        }
    }

    /// Runs `body` with the error if the promise is rejected; the returned promise settles like this one.
    @discardableResult
    public func `catch`(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Promise<Value> {
        continued(rerun: { $0.catch(in: queue, body) }) { outcome, next in
            guard case .failure(let error) = outcome else {
                next.settle(outcome)
                return
            }
            queue.async {
                body(error)
                next.settle(outcome)
            }
        }
    }

    /// Runs `body` however the promise settles; the returned promise settles like this one, after `body`.
    @discardableResult
    public func always(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<Value> {
        continued(rerun: { $0.always(in: queue, body) }) { outcome, next in
            queue.async {
                body()
                next.settle(outcome)
            }
        }
    }

    /// Replaces a rejection with the promise `body` returns for the error; a fulfilment passes through.
    @discardableResult
    public func recover(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (any Error) throws -> Promise<Value>
    ) -> Promise<Value> {
        continued(rerun: { $0.recover(in: queue, body) }) { outcome, next in
            guard case .failure(let error) = outcome else {
                next.settle(outcome)
                return
            }
            Self.step(on: queue, rejecting: next) { try body(error).observe { next.settle($0) } }
        }
    }

    /// The shape every chaining operator shares: a new promise that `react` settles from this
    /// promise's outcome (called on the settling thread; it hops to the caller's queue for user
    /// code), whose retry re-runs this promise's work followed by the same operator, and which
    /// comes from the same store as this promise.
    func continued<NewValue: Sendable>(
        rerun: @escaping @Sendable (Promise<Value>) -> Promise<NewValue>,
        _ react: @escaping @Sendable (Outcome, Promise<NewValue>) -> Void
    ) -> Promise<NewValue> {
        let source = self
        let next = Promise<NewValue>.pending(rerun: { rerun(source.restarted()) }, fromEngineNumbered: storeEngineNumber)
        // Cancelling the result cancels this promise, where it is still pending.
        next.onCancel { source.cancel() }
        observe { react($0, next) }
        return next
    }

    /// Runs a step of the caller's code on `queue`; an error it throws rejects `next`.
    static func step<NewValue: Sendable>(
        on queue: DispatchQueue,
        rejecting next: Promise<NewValue>,
        _ body: @escaping @Sendable () throws -> Void
    ) {
        queue.async {
            do {
                try body()
            } catch {
                next.reject(error)
            }
        }
    }

    /// Makes up to `attempts` attempts in all: while an attempt fails, the work behind the promise
    /// runs again (for a dispatch promise, the item is dispatched again).
    ///
    /// A promise created already settled has no work to re-run, so its outcome is final.
    /// `attempts` below 1 gives a promise rejected with ``KatanaError/invalidRetryAttempts(_:)``.
    public func retry(_ attempts: Int = 3) -> Promise<Value> {
        guard attempts >= 1 else {
            return Promise(rejected: KatanaError.invalidRetryAttempts(attempts))
        }
        let source = self
        let result = Promise<Value>.pending(rerun: { source.restarted().retry(attempts) }, fromEngineNumbered: storeEngineNumber)
        Self.attempt(self, remaining: attempts, settling: result)
        return result
    }

    private static func attempt(_ promise: Promise<Value>, remaining: Int, settling result: Promise<Value>) {
        promise.observe { outcome in
            guard case .failure = outcome, remaining > 1, let rerun = promise.rerun else {
                result.settle(outcome)
                return
            }
            attempt(rerun(), remaining: remaining - 1, settling: result)
        }
    }

    /// A promise of all the values, in order; it is rejected with the first error any of them reports.
    public static func all(_ promises: [Promise<Value>]) -> Promise<[Value]> {
        if promises.isEmpty {
            return Promise<[Value]>(resolved: [])
        }
        let result = Promise<[Value]>.pending(
            rerun: { all(promises.map { $0.restarted() }) },
            fromEngineNumbered: sharedEngineNumber(promises.lazy.map(\.storeEngineNumber))
        )
        let collected = Locked((values: [Value?](repeating: nil, count: promises.count), missing: promises.count))
        for (index, promise) in promises.enumerated() {
            promise.observe { outcome in
                switch outcome {
                case .failure(let error):
                    result.reject(error)
                case .success(let value):
                    let complete: [Value]? = collected.withLock { state in
                        state.values[index] = value
                        state.missing -= 1
                        return state.missing == 0 ? state.values.compactMap { $0 } : nil
                    }
                    if let complete {
                        result.resolve(complete)
                    }
                }
            }
        }
        return result
    }
}
