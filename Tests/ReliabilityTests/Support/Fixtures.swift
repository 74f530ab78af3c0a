import Dispatch
import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport

/// The state of the load and fault tests: a sequence number bumped by every applied state
/// updater (so listeners can check they saw every transition, in order) and the running total.
struct LoadState: State, Equatable {
    var seq = 0
    var total = 0
}

/// Items the tests dispatch carry an id, so interceptors and checks can pick them out.
protocol Tagged: Dispatchable {
    var id: Int { get }
}

/// Dependencies with nothing in them but a way to see when they are released.
final class LoadDependencies: SideEffectDependencyContainer {
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

typealias LoadStore = Store<LoadState, LoadDependencies>

/// An error a side effect throws on purpose.
struct InjectedFault: Error, Equatable {
    let id: Int
}

/// An error an interceptor throws on purpose to reject an item.
struct RejectedByInterceptor: Error, Equatable {
    let id: Int
}

/// The modern state updater: adds `amount`.
struct Add: StateUpdater, Tagged {
    let id: Int
    let amount: Int
    func updateState(_ state: inout LoadState) {
        state.seq += 1
        state.total += amount
    }
}

/// A Katana 2.x action (KatanaLegacy `Action`): adds `amount` through `updatedState(currentState:)`.
@available(*, deprecated, message: "A Katana 2.x action, mixed into the load on purpose")
struct LegacyAdd: Action, Tagged {
    let id: Int
    let amount: Int
    func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? LoadState else { return currentState }
        state.seq += 1
        state.total += amount
        return state
    }
}

/// A returning side effect: returns `amount * 2`, or throws when `fails`.
struct Compute: ReturningSideEffect, Tagged {
    let id: Int
    let amount: Int
    var fails = false
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        if fails { throw InjectedFault(id: id) }
        return amount * 2
    }
}

/// A plain side effect: checks it got the store's typed context, or throws when `fails`.
struct Touch: SideEffect, Tagged {
    let id: Int
    var fails = false
    func sideEffect(_ context: SideEffectContext<LoadState, LoadDependencies>) throws {
        if fails { throw InjectedFault(id: id) }
        _ = context.dependencies
    }
}

/// An async side effect that dispatches `Add(amount)` and waits for it, then returns `amount`;
/// throws (before dispatching anything) when `fails`.
struct AsyncDeposit: AsyncSideEffect, Tagged {
    let id: Int
    let amount: Int
    var fails = false
    func sideEffect(_ context: SideEffectContext<LoadState, LoadDependencies>) async throws -> Int {
        if fails { throw InjectedFault(id: id) }
        try await context.dispatch(RuleAdd(amount: amount)).value
        return amount
    }
}

/// An async side effect that yields once and returns `amount + 1`; throws when `fails`.
struct AsyncCompute: AsyncSideEffect, Tagged {
    let id: Int
    let amount: Int
    var fails = false
    func sideEffect(_ context: SideEffectContext<LoadState, LoadDependencies>) async throws -> Int {
        await Task.yield()
        if fails { throw InjectedFault(id: id) }
        return amount + 1
    }
}

/// An updater dispatched by side effects and observer rules (not tagged: interceptors that pick
/// items by id leave it alone).
struct RuleAdd: StateUpdater {
    let amount: Int
    func updateState(_ state: inout LoadState) {
        state.seq += 1
        state.total += amount
    }
}

/// Checks that a listener sees every transition exactly once, in order: each call must go from
/// sequence number `n` to `n + 1`, starting from the store's first state.
final class SequenceChecker: @unchecked Sendable {
    // @unchecked: every property is only touched while holding `lock`.
    private let lock = NSLock()
    private var last: Int
    private var calls = 0
    private var violations: [String] = []
    private let delayEvery: Int
    private let delay: useconds_t

    /// `delayEvery > 0` makes the listener slow: it sleeps `delay` µs every `delayEvery` calls.
    init(startingAt first: Int = 0, delayEvery: Int = 0, delay: useconds_t = 0) {
        last = first
        self.delayEvery = delayEvery
        self.delay = delay
    }

    func listener(old: LoadState, new: LoadState) {
        let calls: Int = lock.withLock {
            if old.seq != last || new.seq != last + 1, violations.count < 10 {
                violations.append("after seq \(last): got \(old.seq) -> \(new.seq)")
            }
            last = new.seq
            self.calls += 1
            return self.calls
        }
        if delayEvery > 0, calls % delayEvery == 0 {
            usleep(delay)
        }
    }

    var callCount: Int { lock.withLock { calls } }
    var lastSeq: Int { lock.withLock { last } }
    var problems: [String] { lock.withLock { violations } }
}

/// The queues the ledger's callbacks run on: a few serial queues, a promise's callbacks on the one
/// its index picks, so callbacks of different promises still run on several threads at once.
///
/// Not one concurrent queue: on Linux a concurrent queue hands each of its blocks to the process's
/// shared default-priority pool on its own, the pool Swift's global executor (and so every test's
/// task) also runs on, and that pool takes blocks in order: hundreds of thousands of callbacks
/// queued there held every other test in the process up for 20 s on a busy machine. A serial queue
/// holds one place in that pool at a time and runs its blocks in turn.
struct CallbackQueues: Sendable {
    private let queues: [DispatchQueue]

    init(label: String, count: Int = 4) {
        queues = (0..<max(count, 1)).map { DispatchQueue(label: "\(label).\($0)") }
    }

    /// The queue for the promise at `index`.
    func queue(for index: Int) -> DispatchQueue { queues[index % queues.count] }
}

/// What happened to each dispatch promise: how often it settled and with which outcome.
final class PromiseLedger: Sendable {
    enum Outcome: Equatable, Sendable {
        case fulfilled(Int?)
        case rejected(String)
    }

    private struct Entries {
        var settlements: [UInt8]
        var outcomes: [Outcome?]
    }

    private let count: Int
    private let entries: LockedValue<Entries>
    /// The index of each promise as it first settles: what ``allSettled()`` awaits.
    private let firstSettlements = LockedList<Int>()

    init(count: Int) {
        self.count = count
        entries = LockedValue(Entries(settlements: Array(repeating: 0, count: count), outcomes: Array(repeating: nil, count: count)))
    }

    func record(_ index: Int, _ outcome: Outcome) {
        let isFirst = entries.withLock { entries in
            entries.settlements[index] &+= 1
            guard entries.outcomes[index] == nil else { return false }
            entries.outcomes[index] = outcome
            return true
        }
        if isFirst {
            firstSettlements.append(index)
        }
    }

    /// Attaches the ledger to a dispatch promise; `value` maps a fulfilled value to what is checked.
    func watch<V: Sendable>(_ promise: Promise<V>, index: Int, on queues: CallbackQueues, value: @escaping @Sendable (V) -> Int?) {
        let queue = queues.queue(for: index)
        promise.then(in: queue) { self.record(index, .fulfilled(value($0))) }
        promise.catch(in: queue) { self.record(index, .rejected(PromiseLedger.describe($0))) }
    }

    /// Suspends until every promise has settled, woken by each first settlement; false if they
    /// have not within `reliabilityTimeout`.
    func allSettled() async -> Bool {
        (try? await firstSettlements.waitForCount(count, timeout: reliabilityTimeout)) != nil
    }

    var settledCount: Int { entries.withLock { $0.settlements.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } } }
    var settledMoreThanOnce: Int { entries.withLock { $0.settlements.filter { $0 > 1 }.count } }
    func outcome(_ index: Int) -> Outcome? { entries.withLock { $0.outcomes[index] } }

    /// A stable description of an error, to compare outcomes.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let fault as InjectedFault: return "fault \(fault.id)"
        case let rejected as RejectedByInterceptor: return "rejected \(rejected.id)"
        case let katana as KatanaError: return "katana \(katana)"
        default: return "other \(error)"
        }
    }
}
