import Dispatch

extension Promise {
    /// Transforms the value once the promise is fulfilled; a thrown error rejects the result.
    @discardableResult
    public func then<NewValue: Sendable>(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (Value) throws -> NewValue
    ) -> Promise<NewValue> {
        let source = self
        let next = Promise<NewValue>.pending(rerun: { source.restarted().then(in: queue, body) })
        observe { outcome in
            switch outcome {
            case .success(let value):
                queue.async {
                    do {
                        next.resolve(try body(value))
                    } catch {
                        next.reject(error)
                    }
                }
            case .failure(let error):
                next.reject(error)
            }
        }
        return next
    }

    /// Chains another asynchronous step once the promise is fulfilled; the result settles with that step.
    @discardableResult
    public func then<NewValue: Sendable>(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (Value) throws -> Promise<NewValue>
    ) -> Promise<NewValue> {
        let source = self
        let next = Promise<NewValue>.pending(rerun: { source.restarted().then(in: queue, body) })
        observe { outcome in
            switch outcome {
            case .success(let value):
                queue.async {
                    do {
                        try body(value).observe { next.settle($0) }
                    } catch {
                        next.reject(error)
                    }
                }
            case .failure(let error):
                next.reject(error)
            }
        }
        return next
    }

    /// Runs `body` with the error if the promise is rejected; the returned promise settles like this one.
    @discardableResult
    public func `catch`(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Promise<Value> {
        let source = self
        let next = Promise<Value>.pending(rerun: { source.restarted().catch(in: queue, body) })
        observe { outcome in
            switch outcome {
            case .success:
                next.settle(outcome)
            case .failure(let error):
                queue.async {
                    body(error)
                    next.settle(outcome)
                }
            }
        }
        return next
    }

    /// Runs `body` however the promise settles; the returned promise settles like this one, after `body`.
    @discardableResult
    public func always(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<Value> {
        let source = self
        let next = Promise<Value>.pending(rerun: { source.restarted().always(in: queue, body) })
        observe { outcome in
            queue.async {
                body()
                next.settle(outcome)
            }
        }
        return next
    }

    /// Replaces a rejection with the promise `body` returns for the error; a fulfilment passes through.
    @discardableResult
    public func recover(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (any Error) throws -> Promise<Value>
    ) -> Promise<Value> {
        let source = self
        let next = Promise<Value>.pending(rerun: { source.restarted().recover(in: queue, body) })
        observe { outcome in
            switch outcome {
            case .success:
                next.settle(outcome)
            case .failure(let error):
                queue.async {
                    do {
                        try body(error).observe { next.settle($0) }
                    } catch {
                        next.reject(error)
                    }
                }
            }
        }
        return next
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
        let result = Promise<Value>.pending(rerun: { source.restarted().retry(attempts) })
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
        let result = Promise<[Value]>.pending(rerun: { all(promises.map { $0.restarted() }) })
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
