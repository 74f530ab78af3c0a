import Katana

/// What kind of item an interceptor sees, by the protocols the store checks: a log line's `kind`
/// and a metric's `kind` dimension (one definition for both bridges).
package enum ItemKind: String, Sendable {
    /// A state updater: applied on the store's queue, inside `next`.
    case updater
    /// A synchronous (or returning) side effect: its body runs on a worker, inside `next`.
    case sideEffect
    /// An `AsyncSideEffect`: its task starts after the interceptors return.
    case asyncSideEffect
    /// Neither, or both an updater and a side effect: the store rejects it.
    case other

    /// The kind of `item`.
    package init(of item: any Dispatchable) {
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
