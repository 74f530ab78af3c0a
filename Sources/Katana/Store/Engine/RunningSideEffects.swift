/// The async side effects of one store that have started and not ended, so that they can be
/// cancelled through their promise, by id, or all at once by a shutdown, and so that a shutdown
/// knows when the last one has ended.
///
/// A plain value, tested without threads (`RunningSideEffectsTests`); ``SideEffectPool`` keeps one
/// behind a lock and carries out what its methods return once it has let go of the lock.
///
/// A side effect is registered before its task exists (the task may run its body, and even end,
/// before the pool gets its handle back): a cancellation that comes before the task is known is
/// remembered, and ``attach(_:to:)`` hands the task back to be cancelled at once.
struct RunningSideEffects<TaskHandle, PromiseRef> {
    /// What cancelling one side effect takes: reject its promise (naming `item`) and cancel its
    /// task; a nil task is cancelled when it is attached.
    struct Stop {
        let item: any Dispatchable
        let task: TaskHandle?
        let promise: PromiseRef?
    }

    private struct Entry {
        let item: any Dispatchable
        let id: SideEffectID?
        let promise: PromiseRef?
        var task: TaskHandle?
        var isCancelled = false

        /// Marks the entry cancelled; returns what to do, or nil when it was cancelled already.
        mutating func cancel() -> Stop? {
            guard !isCancelled else { return nil }
            isCancelled = true
            return Stop(item: item, task: task, promise: promise)
        }
    }

    private var entries: [UInt64: Entry] = [:]
    private var nextToken: UInt64 = 0

    /// How many side effects are running (cancelled ones included, until their body ends).
    var count: Int {
        entries.count
    }

    /// A side effect starts. Returns its token, and, when it cancels those in flight ("latest
    /// wins"), the running side effects with the same id to cancel.
    mutating func begin(_ item: any Dispatchable, identity: SideEffectIdentity?, promise: PromiseRef?) -> (token: UInt64, cancelling: [Stop]) {
        var cancelling: [Stop] = []
        if let identity, identity.cancelsInFlight {
            cancelling = cancel(id: identity.id)
        }
        nextToken += 1
        entries[nextToken] = Entry(item: item, id: identity?.id, promise: promise)
        return (nextToken, cancelling)
    }

    /// The side effect's task exists now. Returns it when it must be cancelled at once (it was
    /// cancelled before it was known); nil otherwise, also when the side effect has ended already.
    mutating func attach(_ task: TaskHandle, to token: UInt64) -> TaskHandle? {
        guard entries[token] != nil else { return nil }
        entries[token]?.task = task
        return entries[token]?.isCancelled == true ? task : nil
    }

    /// The side effect's body has ended.
    mutating func end(_ token: UInt64) {
        entries[token] = nil
    }

    /// Cancels the side effect with this token (its promise was cancelled); nil when it has ended
    /// or was cancelled already.
    mutating func cancel(token: UInt64) -> Stop? {
        entries[token]?.cancel()
    }

    /// Cancels every running side effect with this id that is not cancelled yet.
    mutating func cancel(id: SideEffectID) -> [Stop] {
        var stops: [Stop] = []
        for token in entries.keys.sorted() where entries[token]?.id == id {
            if let stop = entries[token]?.cancel() {
                stops.append(stop)
            }
        }
        return stops
    }

    /// Cancels every running side effect that is not cancelled yet (a shutdown).
    mutating func cancelAll() -> [Stop] {
        var stops: [Stop] = []
        for token in entries.keys.sorted() {
            if let stop = entries[token]?.cancel() {
                stops.append(stop)
            }
        }
        return stops
    }
}
