import Dispatch

/// A promise settled by whichever of `promises` settles first, fulfilled or rejected (Hydra's
/// `any`); the others are left to finish, and their outcomes are ignored.
///
/// With no promises the result is rejected with ``KatanaError/anyOfNoPromises``. With `queue`,
/// the result is settled from that queue (Hydra's context). ``Promise/retry(_:)`` on the result
/// re-runs the work behind every promise and races them again.
public func any<Value: Sendable>(in queue: DispatchQueue? = nil, _ promises: Promise<Value>...) -> Promise<Value> {
    any(in: queue, promises)
}

/// `any` for an array of promises.
public func any<Value: Sendable>(in queue: DispatchQueue? = nil, _ promises: [Promise<Value>]) -> Promise<Value> {
    guard !promises.isEmpty else {
        return Promise(rejected: KatanaError.anyOfNoPromises)
    }
    let result = Promise<Value>.pending(
        rerun: { any(in: queue, promises.map { $0.restarted() }) },
        fromEngineNumbered: sharedEngineNumber(promises.lazy.map(\.storeEngineNumber))
    )
    for promise in promises {
        // The promise settles once: the first outcome wins, the rest change nothing.
        promise.observe { result.settle($0, on: queue) }
    }
    return result
}
