import Dispatch
import Foundation

extension Promise {
    /// A promise that settles like this one, unless `timeout` seconds pass first: it is then
    /// rejected with `error`, or with ``KatanaError/promiseTimedOut(seconds:)`` when none is given.
    ///
    /// The timer runs on `queue`. Whatever this promise does after the time is up is ignored (the
    /// work behind it is not stopped). A timeout that is zero or negative fires at once; one that
    /// is not a number, or longer than about 30 years, never fires. ``retry(_:)`` re-runs the work
    /// with a new timer.
    public func timeout(
        in queue: DispatchQueue = .global(),
        timeout: TimeInterval,
        error: (any Error)? = nil
    ) -> Promise<Value> {
        let source = self
        let result = Promise<Value>.pending(
            rerun: { source.restarted().timeout(in: queue, timeout: timeout, error: error) },
            fromEngineNumbered: storeEngineNumber
        )
        observe { result.settle($0) }
        if let deadline = DispatchTime.afterSeconds(timeout) {
            queue.asyncAfter(deadline: deadline) {
                result.reject(error ?? KatanaError.promiseTimedOut(seconds: timeout))
            }
        }
        return result
    }
}
