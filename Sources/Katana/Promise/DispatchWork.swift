/// A dispatched item and the number of the store engine it was sent to (see ``EngineDirectory``:
/// a number rather than a reference, so a promise never keeps a released store alive and costs no
/// reference counting on the engine).
struct DispatchWork: Sendable {
    let item: any Dispatchable
    let engineNumber: UInt64

    /// The engine the item was dispatched to, or nil once its store has been released.
    var engine: (any ItemEnqueueing)? {
        EngineDirectory.engine(numbered: engineNumber)
    }

    /// Dispatches the item again; rejected with ``KatanaError/storeDeallocated(item:)`` when the store is gone.
    func redispatch<Value: Sendable>() -> Promise<Value> {
        guard let engine else {
            return Promise(rejected: KatanaError.storeDeallocated(item: typeName(of: item)))
        }
        let promise = Promise<Value>.pending(dispatching: item, toEngineNumbered: engineNumber)
        engine.enqueue(item, settling: promise.handle)
        return promise
    }
}
