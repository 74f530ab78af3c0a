import Dispatch
import Foundation

extension Promise {
    /// Delays the fulfilment by `seconds`: once this promise is fulfilled, the result is fulfilled
    /// with the same value `seconds` later, from `queue` (Hydra's `defer`). A rejection passes
    /// through at once.
    ///
    /// Zero or a negative delay fulfils at once (still from `queue`); a delay that is not a number,
    /// or longer than about 30 years, never fulfils.
    public func `defer`(
        in queue: DispatchQueue = .global(),
        _ seconds: TimeInterval
    ) -> Promise<Value> {
        continued(rerun: { $0.defer(in: queue, seconds) }) { outcome, next in
            switch outcome {
            case .success(let value):
                if let deadline = DispatchTime.afterSeconds(seconds) {
                    queue.asyncAfter(deadline: deadline) { next.resolve(value) }
                }
            case .failure(let error):
                next.reject(error)
            }
        }
    }
}
