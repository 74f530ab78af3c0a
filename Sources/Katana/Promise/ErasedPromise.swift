/// A promise whose value type is hidden, so the store can keep items of every kind in one queue
/// and settle each item's promise with the type-erased outcome of handling it.
protocol ErasedPromise: Sendable {
    /// Settles the promise with an erased outcome; `item` is what was handled, for error messages.
    func settle(erased outcome: Result<any Sendable, any Error>, replacing item: any Dispatchable)
}

extension Promise: ErasedPromise {
    func settle(erased outcome: Result<any Sendable, any Error>, replacing item: any Dispatchable) {
        switch outcome {
        case .failure(let error):
            reject(error)
        case .success(let value):
            if let typed = value as? Value {
                resolve(typed)
            } else if let unit = () as? Value {
                // A `Promise<Void>` only says "done"; any value the handled item produced is dropped.
                resolve(unit)
            } else {
                reject(KatanaError.resultTypeMismatch(
                    item: typeName(of: item),
                    expected: typeName(Value.self),
                    actual: typeName(type(of: value))
                ))
            }
        }
    }
}
