import Dispatch

extension Promise {
    /// Passes the value on when `predicate` returns true for it; rejects the result with
    /// ``KatanaError/validationFailed(valueType:)`` when it returns false, or with the error it throws.
    ///
    /// The predicate runs on `queue`; a rejection of this promise passes through without calling it.
    public func validate(
        in queue: DispatchQueue = .global(),
        _ predicate: @escaping @Sendable (Value) throws -> Bool
    ) -> Promise<Value> {
        continued(rerun: { $0.validate(in: queue, predicate) }) { outcome, next in
            switch outcome {
            case .success(let value):
                Self.step(on: queue, rejecting: next) {
                    guard try predicate(value) else {
                        throw KatanaError.validationFailed(valueType: typeName(Value.self))
                    }
                    next.resolve(value)
                }
            case .failure(let error):
                next.reject(error)
            }
        }
    }
}
