import Dispatch

extension Promise {
    /// Runs an asynchronous step in the middle of a chain without changing its value: once this
    /// promise is fulfilled, `body` runs on `queue` and the result waits for the promise it returns,
    /// then is fulfilled with this promise's value (Hydra's `pass`).
    ///
    /// A rejection of the step, or an error `body` throws, rejects the result; a rejection of this
    /// promise passes through without calling `body`.
    @discardableResult
    public func pass<Other: Sendable>(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (Value) throws -> Promise<Other>
    ) -> Promise<Value> {
        continued(rerun: { $0.pass(in: queue, body) }) { outcome, next in
            switch outcome {
            case .success(let value):
                Self.step(on: queue, rejecting: next) {
                    try body(value).observe { stepOutcome in
                        switch stepOutcome {
                        case .success:
                            next.resolve(value)
                        case .failure(let error):
                            next.reject(error)
                        }
                    }
                }
            case .failure(let error):
                next.reject(error)
            }
        }
    }

    /// Runs `body` in the middle of a chain without changing its value (Hydra's `pass` with a body
    /// that returns nothing); an error it throws rejects the result.
    @discardableResult
    public func pass(
        in queue: DispatchQueue = .global(),
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value> {
        pass(in: queue) { (value: Value) throws -> Promise<Void> in
            try body(value)
            return Promise<Void>(resolved: ())
        }
    }
}
