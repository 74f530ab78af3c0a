import Dispatch

extension Promise {
    /// Hydra's `retry` with a condition: like ``retry(_:)``, but before each new attempt
    /// `condition` is called (on a global queue) with the number of attempts left and the error, and
    /// the work runs again only if it returns `true`; `false`, or an error it throws, rejects the
    /// result with the attempt's error. See ``retryWhen(in:_:_:)`` for a condition that is itself
    /// asynchronous.
    public func retry(
        _ attempts: Int = 3,
        _ condition: @escaping @Sendable (_ remainingAttempts: Int, _ error: any Error) throws -> Bool
    ) -> Promise<Value> {
        retryWhen(attempts) { remaining, error in
            Promise<Bool>(resolved: try condition(remaining, error))
        }
    }
}
