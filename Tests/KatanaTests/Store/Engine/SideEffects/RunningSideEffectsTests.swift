import Testing
@testable import Katana

/// The registry of running async side effects, event by event, without threads: tasks and
/// promises stand in as strings.
@Suite struct RunningSideEffectsTests {
    private struct Search: Dispatchable {}

    /// The registry under test, and named stand-ins for the promises and tasks it keeps: each
    /// promise is a real, never-settled promise, and each task a finished empty task.
    private struct Registry {
        var registry = RunningSideEffects()
        private var promises: [String: PromiseHandle] = [:]
        private var tasks: [String: Task<Void, Never>] = [:]

        var count: Int { registry.count }

        mutating func promise(_ name: String) -> PromiseHandle {
            if let known = promises[name] { return known }
            let made = Promise<Void> { _, _ in }.handle
            promises[name] = made
            return made
        }

        mutating func task(_ name: String) -> Task<Void, Never> {
            if let known = tasks[name] { return known }
            let made = Task<Void, Never> {}
            tasks[name] = made
            return made
        }

        mutating func begin(
            _ promise: String,
            identity: SideEffectIdentity? = nil,
            order: UInt64,
            isStillWanted: () -> Bool = { true }
        ) -> RunningSideEffects.Begun {
            let handle = self.promise(promise)
            return registry.begin(Search.self, identity: identity, promise: handle, order: order, isStillWanted: isStillWanted)
        }

        /// Attaches the task named "t" + the promise's name; returns the name of a task handed back.
        mutating func attach(_ promise: String, to token: Int) -> String? {
            let task = self.task("t" + promise)
            return registry.attach(task, to: token).flatMap { returned in tasks.first { $0.value == returned }?.key }
        }

        mutating func cancel(promise: String) -> RunningSideEffects.Stop? {
            registry.cancel(promise: self.promise(promise))
        }

        /// "promise/task" for each stop, "-" for what it does not have.
        func names(_ stops: [RunningSideEffects.Stop]) -> [String] {
            stops.map(name)
        }

        func name(_ stop: RunningSideEffects.Stop) -> String {
            let promise = stop.promise.flatMap { handle in promises.first { $0.value.isSame(as: handle) }?.key } ?? "-"
            let task = stop.task.flatMap { handle in tasks.first { $0.value == handle }?.key } ?? "-"
            return "\(promise)/\(task)"
        }
    }

    private func identity(_ id: SideEffectID, latestWins: Bool = false) -> SideEffectIdentity {
        SideEffectIdentity(id: id, cancelsInFlight: latestWins)
    }

    /// Begins a side effect and attaches its task ("t" + the promise's name).
    private func started(_ registry: inout Registry, _ promise: String, _ identity: SideEffectIdentity? = nil, order: UInt64) -> RunningSideEffects.Begun {
        let begun = registry.begin(promise, identity: identity, order: order)
        #expect(registry.attach(promise, to: begun.token) == nil)
        return begun
    }

    @Test func beginAttachEnd_countsWhatRuns_andReusesSlots() {
        var registry = Registry()
        let first = started(&registry, "p1", order: 1)
        let second = started(&registry, "p2", order: 2)
        #expect(first.cancelling.isEmpty && first.starts)
        #expect(first.token != second.token)
        #expect(registry.count == 2)
        registry.registry.end(first.token)
        #expect(registry.count == 1)
        let third = started(&registry, "p3", order: 3)
        #expect(third.token == first.token)
        registry.registry.end(second.token)
        registry.registry.end(third.token)
        #expect(registry.count == 0)
    }

    @Test func endBeforeAttach_theAttachFreesTheSlot_andDoesNotCancel() {
        var registry = Registry()
        let begun = registry.begin("p1", order: 1)
        // The task ran its whole body before the pool got its handle back.
        registry.registry.end(begun.token)
        #expect(registry.count == 0)
        // Not cancellable once ended.
        #expect(registry.cancel(promise: "p1") == nil)
        #expect(registry.attach("p1", to: begun.token) == nil)
        // The slot is free again.
        let next = registry.begin("p2", order: 2)
        #expect(next.token == begun.token)
    }

    @Test func cancelByPromise_beforeTheTaskIsKnown_handsTheTaskBackWhenAttached() {
        var registry = Registry()
        let begun = registry.begin("p1", order: 1)
        let stop = registry.cancel(promise: "p1")
        #expect(stop.map(registry.name) == "p1/-")
        // Cancelled once only.
        #expect(registry.cancel(promise: "p1") == nil)
        #expect(registry.attach("p1", to: begun.token) == "tp1")
        // Still counted as running until its body ends.
        #expect(registry.count == 1)
        registry.registry.end(begun.token)
        #expect(registry.count == 0)
    }

    @Test func cancellation_isWhatTheTaskAsksAsItStarts_andWhatItsEndReturns() {
        var registry = Registry()
        let kept = registry.begin("p1", identity: identity("search", latestWins: true), order: 1)
        #expect(registry.registry.cancellation(of: kept.token) == nil)
        // A later one with "latest wins" begins before the first one's task exists.
        let later = registry.begin("p2", identity: identity("search", latestWins: true), order: 2)
        #expect(registry.names(later.cancelling) == ["p1/-"])
        #expect(registry.registry.cancellation(of: kept.token) == .cancelled)
        #expect(registry.registry.cancellation(of: later.token) == nil)
        // Its end says so too, for its promise's error.
        #expect(registry.registry.end(kept.token) == .cancelled)
        // A shutdown's cancellation is told apart.
        #expect(registry.attach("p2", to: later.token) == nil)
        #expect(registry.names(registry.registry.cancelAll()) == ["p2/tp2"])
        #expect(registry.registry.cancellation(of: later.token) == .shutdown)
        #expect(registry.registry.end(later.token) == .shutdown)
        // A freed slot's next side effect starts out not cancelled, and ends so.
        let reused = registry.begin("p3", order: 3)
        #expect(reused.token == later.token || reused.token == kept.token)
        #expect(registry.registry.cancellation(of: reused.token) == nil)
        #expect(registry.registry.end(reused.token) == nil)
    }

    @Test func cancellationErrors_nameTheItem_andTellShutdownApart() {
        #expect(RunningSideEffects.Cancellation.cancelled.error(for: Search.self) == .cancelled(item: typeName(Search.self)))
        #expect(RunningSideEffects.Cancellation.shutdown.error(for: Search.self) == .cancelledByShutdown(item: typeName(Search.self)))
    }

    @Test func cancelByPromise_afterAttach_returnsTheTask_andUnknownPromisesFindNothing() {
        var registry = Registry()
        _ = started(&registry, "p1", order: 1)
        #expect(registry.cancel(promise: "p9") == nil)
        #expect(registry.cancel(promise: "p1").map(registry.name) == "p1/tp1")
    }

    @Test func abandon_freesTheSlotAtOnce() {
        var registry = Registry()
        let begun = registry.begin("p1", order: 1)
        registry.registry.abandon(begun.token)
        #expect(registry.count == 0)
        #expect(registry.cancel(promise: "p1") == nil)
        #expect(registry.begin("p2", order: 2).token == begun.token)
    }

    @Test func cancelByID_cancelsEveryRunningOneWithThatID_inDispatchOrder_once() {
        var registry = Registry()
        _ = started(&registry, "s3", identity("search"), order: 3)
        _ = started(&registry, "s1", identity("search"), order: 1)
        _ = started(&registry, "s2", identity("search"), order: 2)
        _ = started(&registry, "r1", identity("refresh"), order: 4)
        _ = started(&registry, "n1", order: 5)
        #expect(registry.names(registry.registry.cancel(id: "search", before: 100)) == ["s1/ts1", "s2/ts2", "s3/ts3"])
        #expect(registry.registry.cancel(id: "search", before: 100).isEmpty)
        #expect(registry.count == 5)
    }

    @Test func latestWins_cancelsTheEarlierOnesWithItsID_only() {
        var registry = Registry()
        _ = started(&registry, "s1", identity("search", latestWins: true), order: 1)
        _ = started(&registry, "r1", identity("refresh", latestWins: true), order: 2)
        let second = registry.begin("s2", identity: identity("search", latestWins: true), order: 3)
        #expect(registry.names(second.cancelling) == ["s1/ts1"])
        #expect(second.starts)
        // Without the option, a newcomer with the same id cancels nothing.
        let third = registry.begin("s3", identity: identity("search"), order: 4)
        #expect(third.cancelling.isEmpty)
        let fourth = registry.begin("s4", identity: identity("search", latestWins: true), order: 5)
        #expect(registry.names(fourth.cancelling) == ["s2/-", "s3/-"])
    }

    @Test func latestWins_aSideEffectDispatchedEarlierButBegunLater_isCancelledBeforeStart() {
        var registry = Registry()
        // Two workers took 1 then 2; the task of 2 began first.
        _ = started(&registry, "s2", identity("search", latestWins: true), order: 2)
        let late = registry.begin("s1", identity: identity("search", latestWins: true), order: 1)
        #expect(late.isCancelledBeforeStart)
        #expect(late.cancelling.isEmpty)
        registry.registry.abandon(late.token)
        // The later one is still running and cancellable.
        #expect(registry.names(registry.registry.cancel(id: "search", before: 100)) == ["s2/ts2"])
    }

    @Test func latestWins_aLateBeginIsSuperseded_evenWhenEveryLaterOneIsCancelledAlready() {
        var registry = Registry()
        // 1 is on its way to a worker while 2 and 3 begin; 3 supersedes 2, and is then cancelled
        // through its promise: nothing later is cancellable, but 1 still lost to them.
        _ = started(&registry, "s2", identity("search", latestWins: true), order: 2)
        let third = started(&registry, "s3", identity("search", latestWins: true), order: 3)
        #expect(registry.names(third.cancelling) == ["s2/ts2"])
        #expect(registry.cancel(promise: "s3").map(registry.name) == "s3/ts3")
        let late = registry.begin("s1", identity: identity("search", latestWins: true), order: 1)
        #expect(late.isCancelledBeforeStart && !late.starts)
        #expect(late.cancelling.isEmpty)
    }

    @Test func latestWins_aLateBeginIsSuperseded_evenWhenTheLaterOneHasEnded() {
        var registry = Registry()
        let second = started(&registry, "s2", identity("search"), order: 2)
        registry.registry.end(second.token)
        #expect(registry.count == 0)
        // Either side asking for "latest wins" is enough, as with a running one.
        #expect(registry.begin("s1", identity: identity("search", latestWins: true), order: 1).isCancelledBeforeStart)
        let third = started(&registry, "s3", identity("search", latestWins: true), order: 3)
        registry.registry.end(third.token)
        #expect(registry.begin("s0", identity: identity("search"), order: 0).isCancelledBeforeStart)
        // A later one that never started (its promise was cancelled first) supersedes nothing.
        _ = registry.begin("r2", identity: identity("refresh", latestWins: true), order: 2, isStillWanted: { false })
        #expect(registry.begin("r1", identity: identity("refresh", latestWins: true), order: 1).starts)
    }

    @Test func newestBegunOrders_areForgottenOldestFirst_pastTheirLimit() {
        var registry = Registry()
        let limit = RunningSideEffects.rememberedNewestOrders
        for index in 0...limit {
            let begun = started(&registry, "p\(index)", identity(SideEffectID(index)), order: UInt64(index + 10))
            registry.registry.end(begun.token)
        }
        #expect(registry.registry.rememberedNewestOrderCount <= limit)
        // The oldest (id 0, begun at 10) is forgotten; the newest (begun at limit + 10) is not.
        #expect(registry.begin("a", identity: identity(SideEffectID(0), latestWins: true), order: 5).starts)
        #expect(!registry.begin("b", identity: identity(SideEffectID(limit), latestWins: true), order: 5).starts)
    }

    @Test func sameIDWithoutLatestWins_neverSupersedes() {
        var registry = Registry()
        _ = started(&registry, "s2", identity("search"), order: 2)
        let late = registry.begin("s1", identity: identity("search"), order: 1)
        #expect(late.starts)
        #expect(registry.count == 2)
    }

    @Test func cancelAll_cancelsEachOnce_includingThoseWithoutID() {
        var registry = Registry()
        _ = started(&registry, "p1", order: 1)
        _ = registry.begin("p2", identity: identity("search"), order: 2)
        _ = registry.cancel(promise: "p2")
        #expect(registry.names(registry.registry.cancelAll()) == ["p1/tp1"])
        #expect(registry.registry.cancelAll().isEmpty)
        #expect(registry.count == 2)
    }

    @Test func aPromiseCancelledBeforeRegistration_withdrawsTheSideEffect_andFreesTheSlot() {
        var registry = Registry()
        let begun = registry.begin("p1", order: 1, isStillWanted: { false })
        #expect(begun.isWithdrawn && !begun.starts && !begun.isCancelledBeforeStart)
        #expect(registry.count == 0)
        #expect(registry.begin("p2", order: 2).token == begun.token)
    }

    @Test func cancelByID_onlyReachesWhatWasTakenBeforeIt_includingOnesThatBeginLater() {
        var registry = Registry()
        _ = started(&registry, "s1", identity("search"), order: 1)
        _ = started(&registry, "s5", identity("search"), order: 5)
        // Cancelled for everything the store took before sequence 4.
        #expect(registry.names(registry.registry.cancel(id: "search", before: 4)) == ["s1/ts1"])
        // Taken before the cancellation, begun after it: cancelled before it starts.
        let late = registry.begin("s3", identity: identity("search"), order: 3)
        #expect(late.isCancelledBeforeStart && !late.starts)
        registry.registry.abandon(late.token)
        // Dispatched after the cancellation: runs.
        #expect(registry.begin("s6", identity: identity("search"), order: 6).starts)
        // Another id is not affected.
        #expect(registry.begin("r2", identity: identity("refresh"), order: 2).starts)
    }

    @Test func cancelledIDs_areForgottenOldestFirst_pastTheirLimit() {
        var registry = Registry()
        let limit = RunningSideEffects.rememberedCancelledIDs
        for index in 0...limit {
            _ = registry.registry.cancel(id: SideEffectID(index), before: UInt64(index + 10))
        }
        // The oldest (id 0, before 10) is forgotten; id 1 (before 11) is still remembered.
        #expect(registry.begin("a", identity: identity(SideEffectID(0)), order: 5).starts)
        #expect(!registry.begin("b", identity: identity(SideEffectID(1)), order: 5).starts)
    }
}
