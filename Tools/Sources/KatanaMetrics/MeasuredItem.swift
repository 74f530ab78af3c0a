import Katana

/// How the store dealt with an item: the `outcome` dimension.
enum MeasuredOutcome: String {
    /// Passed on to the store (by this interceptor's `next`).
    case handled
    /// Not passed on by a later interceptor, which did not throw.
    case blocked
    /// A later interceptor threw before passing the item on.
    case rejected
}

/// What kind of item is counted: the `kind` dimension, and which timer, if any, it goes to.
enum MeasuredKind: String {
    /// A state updater: applied on the store's queue, inside `next`.
    case updater
    /// A synchronous (or returning) side effect: its body runs on a worker, inside `next`.
    case sideEffect
    /// An `AsyncSideEffect`: its task starts after the interceptors return.
    case asyncSideEffect
    /// Neither, or both an updater and a side effect: the store rejects it.
    case other

    init(of item: any Dispatchable) {
        let isSideEffect = item is any AnySideEffect
        if item is any AnyStateUpdater {
            self = isSideEffect ? .other : .updater
        } else if item is any AsyncSideEffect {
            self = .asyncSideEffect
        } else {
            self = isSideEffect ? .sideEffect : .other
        }
    }
}
