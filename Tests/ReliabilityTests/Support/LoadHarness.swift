import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaObservers
import KatanaTestSupport

/// What an interceptor does with a tagged item in the fault test.
enum InterceptorFault: Equatable {
    case pass, block, reject

    /// 5% of items are picked: half of them blocked (the interceptor returns without `next`),
    /// half rejected (it throws). Decided from the id alone, so checks can recompute it.
    static func decide(id: Int, enabled: Bool) -> InterceptorFault {
        // Negative ids are the follow-up checks' own items, never faulted.
        guard enabled, id >= 0 else { return .pass }
        var generator = SplitMix(seed: UInt64(bitPattern: Int64(id)) &* 31 &+ 7)
        let roll = generator.next() % 40
        switch roll {
        case 0: return .block
        case 1: return .reject
        default: return .pass
        }
    }
}

/// One item of the load, with what must come of it.
struct PlannedItem {
    enum Kind { case add, legacyAdd, compute, touch, asyncDeposit, asyncCompute }
    let id: Int
    let kind: Kind
    let amount: Int
    /// The side effect throws (10% of side effects in the fault test).
    let sideEffectFails: Bool
    let fault: InterceptorFault

    init(id: Int, faults: Bool) {
        var generator = SplitMix(seed: UInt64(bitPattern: Int64(id)))
        let roll = generator.next() % 100
        switch roll {
        case 0..<35: kind = .add
        case 35..<50: kind = .legacyAdd
        case 50..<65: kind = .compute
        case 65..<75: kind = .touch
        case 75..<88: kind = .asyncDeposit
        default: kind = .asyncCompute
        }
        self.id = id
        amount = Int(generator.next() % 9) + 1
        let isSideEffect = kind != .add && kind != .legacyAdd
        sideEffectFails = faults && isSideEffect && generator.next() % 10 == 0
        fault = InterceptorFault.decide(id: id, enabled: faults)
    }

    var isUpdater: Bool { kind == .add || kind == .legacyAdd }

    /// The fully qualified type name the store uses in its errors.
    var typeName: String {
        switch kind {
        case .add: String(reflecting: Add.self)
        case .legacyAdd: legacyParts.legacyAddTypeName
        case .compute: String(reflecting: Compute.self)
        case .touch: String(reflecting: Touch.self)
        case .asyncDeposit: String(reflecting: AsyncDeposit.self)
        case .asyncCompute: String(reflecting: AsyncCompute.self)
        }
    }

    /// How its dispatch promise must settle.
    var expectedOutcome: PromiseLedger.Outcome {
        switch fault {
        case .reject:
            return .rejected(PromiseLedger.describe(RejectedByInterceptor(id: id)))
        case .block:
            if isUpdater { return .fulfilled(nil) }
            return .rejected(PromiseLedger.describe(KatanaError.blockedByInterceptor(item: typeName)))
        case .pass:
            if sideEffectFails { return .rejected(PromiseLedger.describe(InjectedFault(id: id))) }
            switch kind {
            case .add, .legacyAdd, .touch: return .fulfilled(nil)
            case .compute: return .fulfilled(amount * 2)
            case .asyncDeposit: return .fulfilled(amount)
            case .asyncCompute: return .fulfilled(amount + 1)
            }
        }
    }

    /// The state updaters it causes to be applied, and what they add, once everything settled:
    /// its own update, the `RuleAdd` an async deposit dispatches, and the `RuleAdd` the observer
    /// rules dispatch for every handled `Compute`.
    var expectedUpdates: (count: Int, total: Int) {
        guard fault == .pass else { return (0, 0) }
        switch kind {
        case .add, .legacyAdd: return (1, amount)
        case .asyncDeposit: return sideEffectFails ? (0, 0) : (1, amount)
        case .compute: return (1, 1)
        case .touch, .asyncCompute: return (0, 0)
        }
    }

    /// Dispatches the item to `store`, and has `ledger` watch its promise as entry `index`. The side
    /// effects go through `anyDispatch`, which takes them whatever the store's dependencies.
    func dispatch<D>(to store: Store<LoadState, D>, watchedBy ledger: PromiseLedger, as index: Int, on queues: CallbackQueues) {
        let sideEffect: any Dispatchable
        switch kind {
        case .add:
            ledger.watch(store.dispatch(Add(id: id, amount: amount)), index: index, on: queues) { _ in nil }
            return
        case .legacyAdd:
            ledger.watch(legacyParts.dispatchLegacyAdd(id: id, amount: amount, to: store), index: index, on: queues) { _ in nil }
            return
        case .compute: sideEffect = Compute(id: id, amount: amount, fails: sideEffectFails)
        case .touch: sideEffect = Touch(id: id, fails: sideEffectFails)
        case .asyncDeposit: sideEffect = AsyncDeposit(id: id, amount: amount, fails: sideEffectFails)
        case .asyncCompute: sideEffect = AsyncCompute(id: id, amount: amount, fails: sideEffectFails)
        }
        ledger.watch(store.anyDispatch(sideEffect), index: index, on: queues) { $0 as? Int }
    }

    /// Whether it reaches the interceptors after the fault interceptor.
    var passesFaultInterceptor: Bool { fault == .pass }

    /// Nested items it makes pass through the whole chain (the `RuleAdd`s above).
    var nestedItems: Int {
        guard fault == .pass else { return 0 }
        switch kind {
        case .asyncDeposit: return sideEffectFails ? 0 : 1
        case .compute: return 1
        default: return 0
        }
    }
}

/// Counts every item an interceptor sees; the first one of the chain also applies the faults.
final class CountingInterceptor: @unchecked Sendable {
    let seen = LockedValue(0)
    let appliesFaults: Bool

    init(appliesFaults: Bool = false) {
        self.appliesFaults = appliesFaults
    }

    var interceptor: StoreInterceptor {
        { _ in
            { next in
                { item in
                    self.seen.withLock { $0 += 1 }
                    if self.appliesFaults, let tagged = item as? any Tagged {
                        switch InterceptorFault.decide(id: tagged.id, enabled: true) {
                        case .pass: break
                        case .block: return
                        case .reject: throw RejectedByInterceptor(id: tagged.id)
                        }
                    }
                    try next(item)
                }
            }
        }
    }
}

/// The whole mixed-load set-up of items 1 and 2: a store with 10 interceptors (one of them a
/// KatanaLegacy middleware, one the DispatchableLogger), an observer interceptor with 20 rules,
/// 10 listeners, and the dispatching threads.
final class LoadHarness: @unchecked Sendable {
    static let ruleCount = 20
    static let startAmount = 1000
    static let notificationAmount = 7
    static let notificationEvery = 500

    let threads: Int
    let perThread: Int
    let faults: Bool
    let items: [PlannedItem]
    let ledger: PromiseLedger
    let counting: [CountingInterceptor]
    let middlewareSeen = LockedValue(0)
    let loggedLines = LockedValue(0)
    let legacyRuleHits = (0..<5).map { _ in LockedValue(0) }
    let seqChangeHits = (0..<4).map { _ in LockedValue(0) }
    let stateChangeHits = (0..<3).map { _ in LockedValue(0) }
    let notificationsPosted = LockedValue(0)
    let listeners: [SequenceChecker]
    let center = NotificationCenter()
    let notificationName = Notification.Name("ReliabilityTests.load.notification")
    let callbackQueues = CallbackQueues(label: "ReliabilityTests.promises")
    private(set) var store: LoadStore!
    private(set) var observerRuleCount = 0

    init(threads: Int, perThread: Int, faults: Bool, slowListeners: Int) {
        self.threads = threads
        self.perThread = perThread
        self.faults = faults
        items = (0..<(threads * perThread)).map { PlannedItem(id: $0, faults: faults) }
        ledger = PromiseLedger(count: threads * perThread)
        counting = (0..<8).map { CountingInterceptor(appliesFaults: faults && $0 == 0) }
        listeners = (0..<10).map { index in
            index < slowListeners ? SequenceChecker(delayEvery: 2_000, delay: 2_000) : SequenceChecker()
        }
        let rules = makeRules()
        let middlewareSeen = self.middlewareSeen
        let middleware = legacyParts.middlewareInterceptor { middlewareSeen.withLock { $0 += 1 } }
        let loggedLines = self.loggedLines
        let logger = DispatchableLogger.interceptor(blackList: [RuleAdd.self]) { _ in loggedLines.withLock { $0 += 1 } }
        let observer = ObserverInterceptor.observe(notificationCenter: center, reporter: { _ in }) { rules }
        // 10 interceptors, the fault interceptor first, the observer in the middle.
        var interceptors: [StoreInterceptor] = counting[0..<4].map(\.interceptor)
        interceptors.append(middleware)
        interceptors.append(observer)
        interceptors.append(logger)
        interceptors += counting[4..<8].map(\.interceptor)
        // The store starts only once the listeners are in place, so they see every transition,
        // the OnStart rule's included.
        let startUp = DeferredExecutor()
        store = LoadStore(
            interceptors: interceptors,
            stateInitializer: { LoadState() },
            configuration: .init(
                stateInitializerAsyncProvider: startUp,
                listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.listeners")
            )
        )
        for checker in listeners {
            store.addListener { old, new in checker.listener(old: old, new: new) }
        }
        startUp.runPending()
    }

    private func makeRules() -> ObserverRules {
        let legacyRuleHits = self.legacyRuleHits
        let seqChangeHits = self.seqChangeHits
        let stateChangeHits = self.stateChangeHits
        let name = notificationName
        let rules = ObserverRules("load") {
            OnStart { RuleAdd(amount: LoadHarness.startAmount) }
            // Exactly one of these five fires for each handled Compute.
            for k in 0..<5 {
                OnDispatch(Compute.self) { compute in compute.id % 5 == k ? RuleAdd(amount: 1) : nil }
            }
            legacyParts.legacyAddRules(counting: legacyRuleHits)
            for k in 0..<4 {
                OnChange(of: \LoadState.seq) { _, _ in seqChangeHits[k].withLock { $0 += 1 }; return nil }
            }
            for k in 0..<3 {
                OnStateChange { (_: LoadState, _: LoadState) in stateChangeHits[k].withLock { $0 += 1 }; return nil }
            }
            OnNotification(name) { _ in RuleAdd(amount: LoadHarness.notificationAmount) }
            OnNotification(name) { _ in RuleAdd(amount: LoadHarness.notificationAmount) }
        }
        observerRuleCount = rules.rules.count
        return rules
    }

    /// Dispatches every planned item from `threads` threads; returns false if they did not finish in time.
    func dispatchAll() async -> Bool {
        await runConcurrently(threads: threads) { thread in
            for k in 0..<self.perThread {
                let index = thread * self.perThread + k
                self.items[index].dispatch(to: self.store, watchedBy: self.ledger, as: index, on: self.callbackQueues)
                if index % LoadHarness.notificationEvery == 0 {
                    self.notificationsPosted.withLock { $0 += 1 }
                    self.center.post(name: self.notificationName, object: nil)
                }
            }
        }
    }

    /// The state updaters that must have been applied once everything settled, and their sum.
    var expected: (seq: Int, total: Int, throughChain: Int, direct: Int, nested: Int) {
        var seq = 1  // the OnStart rule's RuleAdd
        var total = LoadHarness.startAmount
        var passing = 0
        var nested = 1
        for item in items {
            let updates = item.expectedUpdates
            seq += updates.count
            total += updates.total
            if item.passesFaultInterceptor { passing += 1 }
            nested += item.nestedItems
        }
        let notifications = notificationsPosted.value * 2
        seq += notifications
        total += notifications * LoadHarness.notificationAmount
        nested += notifications
        return (seq, total, passing, items.count, nested)
    }
}
