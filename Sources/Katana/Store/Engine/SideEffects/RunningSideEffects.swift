/// The async side effects of one store that have started and not ended, so that they can be
/// cancelled through their promise, by id, or all at once by a shutdown, and so that a shutdown
/// knows when the last one has ended.
///
/// A plain value, tested without threads (`RunningSideEffectsTests`); ``SideEffectPool`` keeps one
/// behind a lock and carries out what its methods return once it has let go of the lock.
///
/// Each side effect holds a slot from ``begin(_:identity:promise:order:)`` to ``end(_:)``; slots are
/// reused, so the bookkeeping allocates nothing in a steady stream. A side effect is registered
/// before its task exists (the task may run its body, and even end, before the pool gets its
/// handle back): a cancellation that comes before the task is known is remembered, and
/// ``attach(_:to:)`` hands the task back to be cancelled at once; a slot whose side effect ended
/// before its task was attached is freed by the attach. The task also asks ``cancellation(of:)`` as
/// its first step, and cancels itself if so: the thread that started it may not get to the attach
/// before a body that does not suspend has run to its end. When the body ends, ``end(_:)`` says
/// whether it was cancelled, so that its promise is rejected with the cancellation's error even
/// if the body's own error (a `CancellationError`) comes before the canceller's rejection.
///
/// "Latest wins" and cancelling by id follow `order`, the side effect's sequence: the order in which
/// the store took the items out of its inbox (the order they were dispatched in), not the order in
/// which their tasks happen to begin on the pool's workers. Of two side effects with the same id,
/// the one dispatched later survives: one that begins after a later one began is not started,
/// even if that later one has been cancelled or has ended meanwhile (the registry remembers, per
/// id, the newest sequence that began).
struct RunningSideEffects {
    /// Why a side effect was cancelled, which decides its promise's error.
    enum Cancellation: Equatable {
        /// Through its promise, its id, or a later one with "latest wins".
        case cancelled
        /// By a shutdown that cancels what is left.
        case shutdown

        /// The error its promise is rejected with.
        func error(for itemType: any Dispatchable.Type) -> KatanaError {
            switch self {
            case .cancelled: .cancelled(item: typeName(itemType))
            case .shutdown: .cancelledByShutdown(item: typeName(itemType))
            }
        }
    }

    /// What cancelling one side effect takes: reject its promise (naming the item's type) and
    /// cancel its task; a nil task is cancelled when it is attached.
    struct Stop {
        let itemType: any Dispatchable.Type
        let task: Task<Void, Never>?
        let promise: PromiseHandle?
    }

    /// What ``begin(_:identity:promise:order:)`` tells the pool.
    struct Begun {
        /// The side effect's slot, for ``attach(_:to:)``, ``end(_:)`` and ``abandon(_:)``.
        let token: Int
        /// Side effects with the same id that this one cancels ("latest wins").
        let cancelling: [Stop]
        /// Whether it lost before it started: a side effect with the same id dispatched later is
        /// running already ("latest wins"), or its id was cancelled after it was dispatched. It is
        /// not to be run, and its promise is to be rejected.
        let isCancelledBeforeStart: Bool
        /// Whether its promise had been cancelled before it was registered: it does not start,
        /// and its slot is free again already.
        let isWithdrawn: Bool

        /// Whether the side effect is to be started.
        var starts: Bool {
            !isCancelledBeforeStart && !isWithdrawn
        }
    }

    /// One slot's bookkeeping. An object kept for the slot's next side effect once this one is
    /// done, so that the registry moves references instead of copying entries, and allocates
    /// nothing in a steady stream (docs/PERFORMANCE.md, "Cancellation"). A copy of the registry
    /// would share them: the pool only ever changes its one registry in place.
    private final class Entry {
        var itemType: any Dispatchable.Type
        var identity: SideEffectIdentity?
        var order: UInt64
        var promise: PromiseHandle?
        var task: Task<Void, Never>?
        var cancellation: Cancellation?
        /// The body ended before the task was attached: the attach frees the slot.
        var hasEnded = false
        /// Whether a side effect holds the slot.
        var isInUse = true

        init(itemType: any Dispatchable.Type, identity: SideEffectIdentity?, order: UInt64, promise: PromiseHandle?, cancellation: Cancellation?) {
            self.itemType = itemType
            self.identity = identity
            self.order = order
            self.promise = promise
            self.cancellation = cancellation
        }

        /// Whether cancelling it would still do something.
        var isCancellable: Bool {
            isInUse && cancellation == nil && !hasEnded
        }

        /// Marks it cancelled; returns what to do, or nil when there is nothing left to cancel.
        func cancel(_ reason: Cancellation) -> Stop? {
            guard isCancellable else { return nil }
            cancellation = reason
            return Stop(itemType: itemType, task: task, promise: promise)
        }

        /// The slot's next side effect.
        func reuse(itemType: any Dispatchable.Type, identity: SideEffectIdentity?, order: UInt64, promise: PromiseHandle?, cancellation: Cancellation?) {
            self.itemType = itemType
            self.identity = identity
            self.order = order
            self.promise = promise
            self.cancellation = cancellation
            hasEnded = false
            isInUse = true
        }

        /// The side effect is done: the references it held are let go.
        func release() {
            identity = nil
            promise = nil
            task = nil
            isInUse = false
        }
    }

    private var slots: [Entry] = []
    private var freeSlots: [Int] = []
    /// Ids cancelled by ``cancel(id:before:)``, with the sequence before which a side effect of that
    /// id that starts late (it was on its way to a worker) is cancelled when it begins.
    private var cancelledIDs: [SideEffectID: UInt64] = [:]

    /// For each id, the newest sequence that began with it, and the newest of those that asked
    /// for "latest wins" (nil: none did).
    private struct NewestBegun {
        var any: UInt64
        var latestWins: UInt64?

        /// Whether a side effect with `identity` and sequence `order` lost to what began: a newer
        /// one began, and either of the two asked for "latest wins".
        func isAhead(of order: UInt64, for identity: SideEffectIdentity) -> Bool {
            (identity.cancelsInFlight && any > order) || (latestWins.map { $0 > order } ?? false)
        }
    }

    /// Per id, the newest side effects that began, so that an older one that begins late loses to
    /// them even once they are no longer running.
    private var newestBegun: [SideEffectID: NewestBegun] = [:]

    /// How many ids' newest sequences are remembered: past this, the older half is forgotten (as
    /// for cancelled ids, a late side effect is late by microseconds, so only a flood of distinct
    /// ids could make one begin after its id was forgotten).
    static var rememberedNewestOrders: Int { 256 }

    /// How many ids' newest sequences are remembered now (for tests).
    var rememberedNewestOrderCount: Int { newestBegun.count }

    /// How many cancelled ids are remembered: past this, the oldest is forgotten. A side effect is
    /// on its way to a worker for a few microseconds, so only a flood of cancellations by distinct
    /// ids could make a late one start after its id's entry was forgotten.
    static var rememberedCancelledIDs: Int { 256 }

    /// How many side effects are running (cancelled ones included, until their body ends).
    private(set) var count = 0

    /// A side effect starts; `order` is its place in dispatch order. With "latest wins", the
    /// running side effects with the same id dispatched before it are cancelled; if one dispatched
    /// after it is running already, this one is superseded instead.
    ///
    /// `isStillWanted` is asked once it is registered: false when its promise was cancelled before
    /// (it then does not start; see `SideEffectPool.cancelStarted(_:)` for the other order).
    mutating func begin(
        _ itemType: any Dispatchable.Type,
        identity: SideEffectIdentity?,
        promise: PromiseHandle?,
        order: UInt64,
        isStillWanted: () -> Bool = { true }
    ) -> Begun {
        var cancelling: [Stop] = []
        var isCancelledBeforeStart = false
        if let identity {
            if let before = cancelledIDs[identity.id], order < before {
                isCancelledBeforeStart = true
            }
            if let newest = newestBegun[identity.id], newest.isAhead(of: order, for: identity) {
                isCancelledBeforeStart = true
            }
            for entry in slots where entry.isCancellable {
                guard let other = entry.identity, other.id == identity.id else { continue }
                if entry.order > order {
                    // A later one of the same id is running; it wins if either asked for it.
                    isCancelledBeforeStart = isCancelledBeforeStart || identity.cancelsInFlight || other.cancelsInFlight
                } else if identity.cancelsInFlight, let stop = entry.cancel(.cancelled) {
                    cancelling.append(stop)
                }
            }
        }
        let token: Int
        if let free = freeSlots.popLast() {
            token = free
            slots[token].reuse(itemType: itemType, identity: identity, order: order, promise: promise, cancellation: isCancelledBeforeStart ? .cancelled : nil)
        } else {
            token = slots.count
            slots.append(Entry(itemType: itemType, identity: identity, order: order, promise: promise, cancellation: isCancelledBeforeStart ? .cancelled : nil))
        }
        count += 1
        if !isCancelledBeforeStart, !isStillWanted() {
            abandon(token)
            return Begun(token: token, cancelling: cancelling, isCancelledBeforeStart: false, isWithdrawn: true)
        }
        if let identity {
            remember(identity, began: order)
        }
        return Begun(token: token, cancelling: cancelling, isCancelledBeforeStart: isCancelledBeforeStart, isWithdrawn: false)
    }

    /// The side effect's task exists now. Returns it when it must be cancelled at once (it was
    /// cancelled before it was known); nil otherwise, also when the side effect has ended already.
    mutating func attach(_ task: Task<Void, Never>, to token: Int) -> Task<Void, Never>? {
        let entry = slots[token]
        guard entry.isInUse else { return nil }
        if entry.hasEnded {
            free(token)
            return nil
        }
        entry.task = task
        return entry.cancellation != nil ? task : nil
    }

    /// Why the side effect was cancelled since it began (by its promise, its id, a later one with
    /// "latest wins" or a shutdown); nil if it was not. Its task asks as it starts, before the body
    /// runs.
    func cancellation(of token: Int) -> Cancellation? {
        let entry = slots[token]
        return entry.isInUse ? entry.cancellation : nil
    }

    /// The side effect's body has ended; returns why it was cancelled, if it was, so that its
    /// promise is rejected with that error whatever the body returned. If its task is not attached
    /// yet, the attach to come frees the slot.
    @discardableResult
    mutating func end(_ token: Int) -> Cancellation? {
        let cancellation = slots[token].cancellation
        count -= 1
        if slots[token].task != nil {
            free(token)
        } else {
            slots[token].hasEnded = true
        }
        return cancellation
    }

    /// The side effect will not run after all (it was superseded, or its promise was cancelled
    /// before it started): its slot is freed, and no task will be attached.
    mutating func abandon(_ token: Int) {
        count -= 1
        free(token)
    }

    /// Cancels the side effect whose promise is `promise` (it was cancelled); nil when none is
    /// running, or it was cancelled already.
    mutating func cancel(promise: PromiseHandle) -> Stop? {
        for entry in slots where entry.isInUse && !entry.hasEnded {
            if let own = entry.promise, own.isSame(as: promise) {
                return entry.cancel(.cancelled)
            }
        }
        return nil
    }

    /// Cancels every running side effect with this id that is not cancelled yet and whose sequence
    /// is below `sequence` (those the store took before the cancellation), in dispatch order; one
    /// that begins later with such a sequence is cancelled before it starts.
    mutating func cancel(id: SideEffectID, before sequence: UInt64) -> [Stop] {
        cancelledIDs[id] = max(cancelledIDs[id] ?? 0, sequence)
        if cancelledIDs.count > Self.rememberedCancelledIDs,
           let oldest = cancelledIDs.min(by: { $0.value < $1.value })?.key {
            cancelledIDs[oldest] = nil
        }
        return cancelAll(.cancelled) { $0.identity?.id == id && $0.order < sequence }
    }

    /// Cancels every running side effect that is not cancelled yet (a shutdown), in dispatch order.
    mutating func cancelAll() -> [Stop] {
        cancelAll(.shutdown) { _ in true }
    }

    private mutating func cancelAll(_ reason: Cancellation, where isTarget: (Entry) -> Bool) -> [Stop] {
        slots.filter { $0.isCancellable && isTarget($0) }
            .sorted { $0.order < $1.order }
            .compactMap { $0.cancel(reason) }
    }

    /// Notes that a side effect with `identity` began with sequence `order`.
    private mutating func remember(_ identity: SideEffectIdentity, began order: UInt64) {
        var newest = newestBegun[identity.id] ?? NewestBegun(any: order, latestWins: nil)
        newest.any = max(newest.any, order)
        if identity.cancelsInFlight {
            newest.latestWins = max(newest.latestWins ?? order, order)
        }
        newestBegun[identity.id] = newest
        if newestBegun.count > Self.rememberedNewestOrders {
            let kept = newestBegun.sorted { $0.value.any > $1.value.any }.prefix(Self.rememberedNewestOrders / 2)
            newestBegun = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
    }

    private mutating func free(_ token: Int) {
        slots[token].release()
        freeSlots.append(token)
    }
}
