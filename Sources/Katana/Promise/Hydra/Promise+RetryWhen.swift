import Dispatch

extension Promise {
    /// Like ``retry(_:)``, but asks `condition` before each new attempt (Hydra's `retryWhen`): while
    /// an attempt fails and attempts remain, `condition` runs on `queue` with the number of attempts
    /// left and the error, and the work behind the promise runs again (for a dispatch promise, the
    /// item is dispatched again) only if the promise it returns is fulfilled with `true`.
    ///
    /// The result is rejected with the attempt's error when `condition` answers `false`, throws,
    /// or its promise is rejected, and after the last attempt. `attempts` counts every attempt,
    /// the first one included; below 1 it gives a promise rejected with
    /// ``KatanaError/invalidRetryAttempts(_:)``. A promise created already settled has no work to
    /// re-run, so its outcome is final.
    public func retryWhen(
        in queue: DispatchQueue = .global(),
        _ attempts: Int = 3,
        _ condition: @escaping @Sendable (_ remainingAttempts: Int, _ error: any Error) throws -> Promise<Bool> = { _, _ in
            Promise<Bool>(resolved: true)
        }
    ) -> Promise<Value> {
        guard attempts >= 1 else {
            return Promise(rejected: KatanaError.invalidRetryAttempts(attempts))
        }
        let source = self
        let result = Promise<Value>.pending(
            rerun: { source.restarted().retryWhen(in: queue, attempts, condition) },
            fromEngineNumbered: storeEngineNumber
        )
        Self.attempt(self, remaining: attempts, asking: condition, on: queue, settling: result)
        return result
    }

    /// Settles `result` with `promise`'s outcome, unless it failed, attempts remain and `condition`
    /// agrees to another attempt, which then goes through the same steps.
    private static func attempt(
        _ promise: Promise<Value>,
        remaining: Int,
        asking condition: @escaping @Sendable (Int, any Error) throws -> Promise<Bool>,
        on queue: DispatchQueue,
        settling result: Promise<Value>
    ) {
        promise.observe { outcome in
            guard case .failure(let failure) = outcome, remaining > 1, let rerun = promise.rerun else {
                result.settle(outcome)
                return
            }
            queue.async {
                // A condition that throws means "do not retry": the attempt's error stands.
                guard let decision = try? condition(remaining - 1, failure) else {
                    result.reject(failure)
                    return
                }
                decision.observe { answer in
                    guard case .success(true) = answer else {
                        result.reject(failure)
                        return
                    }
                    attempt(rerun(), remaining: remaining - 1, asking: condition, on: queue, settling: result)
                }
            }
        }
    }
}
