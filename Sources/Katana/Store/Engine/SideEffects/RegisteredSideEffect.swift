/// A side effect as ``SideEffectRegistry`` sees it: one object per side effect the store has
/// taken, made by the drainer and shared by the registry and the thread that runs it, so that it
/// moves between them with a retain rather than a copy of the item and its promise.
protocol RegisteredSideEffect: AnyObject {
    /// Its place in dispatch order (the inbox's count when it was dispatched).
    var order: UInt64 { get }
    /// Its type, for the cancellation errors that name it.
    var itemType: any Dispatchable.Type { get }
    /// Its cancellation id and whether it cancels those in flight; nil without an id.
    var identity: SideEffectIdentity? { get }
    /// The promise its outcome settles.
    var promise: PromiseHandle? { get }
    /// Whether it is an async side effect (a shutdown cancels those, not synchronous bodies).
    var isAsync: Bool { get }
    /// Whether it is an async side effect whose task the worker that takes it starts at once (no
    /// interceptors run first).
    var startsTaskWhenTaken: Bool { get }
    /// What cancelled it, once something did: recorded here and nowhere else, by the registry
    /// under its lock, and read by its task as it starts without one.
    var cancellation: SideEffectEnd.Canceller? { get }

    /// Records that `canceller` cancelled it (called under the registry's lock, once).
    func recordCancellation(_ canceller: SideEffectEnd.Canceller)
}
