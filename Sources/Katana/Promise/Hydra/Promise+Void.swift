import Dispatch

extension Promise {
    /// The same promise with its value dropped: it is fulfilled with `()` when this one is
    /// fulfilled, and rejected with the same error (Hydra's `void`), for `zip`, `all` or APIs
    /// that only need to know that the work is done.
    public var void: Promise<Void> {
        // No hop to a queue: no user code runs here.
        continued(rerun: { $0.void }) { outcome, next in
            next.settle(outcome.map { _ in () })
        }
    }
}
