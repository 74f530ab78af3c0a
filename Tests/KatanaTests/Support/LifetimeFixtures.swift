import Foundation
@testable import Katana
import KatanaTestSupport

/// A gate async code waits at until the test opens it; a waiting task that is cancelled stops
/// waiting at once with `CancellationError`, as a cancellable `await` does. A test awaits the
/// waiters' arrival with ``waitForWaiters(_:timeout:)``, woken by each arrival.
final class AsyncGate: Sendable {
    private enum Waiter {
        case waiting(CheckedContinuation<Void, any Error>)
        case cancelledBeforeWaiting
    }

    private struct Waiting {
        var isOpen = false
        var waiters: [Int: Waiter] = [:]
        var nextID = 0

        var waitingCount: Int {
            waiters.values.filter { if case .waiting = $0 { true } else { false } }.count
        }
    }

    private let waiting = LockedValue(Waiting())
    /// One element per change of the waiters (appended after the gate's lock is let go), so
    /// that a test's wait looks again.
    private let changes = LockedList<Void>()

    /// Lets every waiter through, now and later.
    func open() {
        let resumed = waiting.withLock { waiting in
            waiting.isOpen = true
            defer { waiting.waiters = [:] }
            return waiting.waiters.values
        }
        for case .waiting(let continuation) in resumed {
            continuation.resume()
        }
        changes.append(())
    }

    /// How many tasks wait at the gate.
    var waitingCount: Int {
        waiting.withLock { $0.waitingCount }
    }

    /// Suspends until exactly `count` tasks wait at the gate.
    func waitForWaiters(_ count: Int, timeout: Duration = defaultTestTimeout) async throws {
        try await waitUntil("\(count) task(s) waiting at the gate", timeout: timeout) { [self] in waitingCount == count }
    }

    /// Suspends until `condition` holds, asking it again after each change of the gate's waiters
    /// (one arrives, one is cancelled, the gate opens): for conditions that such a change settles.
    func waitUntil(
        _ what: String, timeout: Duration = defaultTestTimeout, _ condition: @escaping @Sendable () -> Bool
    ) async throws {
        try await changes.waitUntil(what, timeout: timeout) { _ in condition() }
    }

    /// Waits until the gate opens; throws `CancellationError` if the task is cancelled first.
    func wait() async throws {
        let id = waiting.withLock { waiting in
            waiting.nextID += 1
            return waiting.nextID
        }
        defer { changes.append(()) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = waiting.withLock { waiting in
                    if waiting.isOpen {
                        return .success(())
                    }
                    if case .cancelledBeforeWaiting = waiting.waiters[id] {
                        waiting.waiters[id] = nil
                        return .failure(CancellationError())
                    }
                    waiting.waiters[id] = .waiting(continuation)
                    return nil
                }
                if let outcome {
                    continuation.resume(with: outcome)
                } else {
                    changes.append(())
                }
            }
        } onCancel: {
            let waiter = waiting.withLock { waiting -> Waiter? in
                let waiter = waiting.waiters[id]
                if case .waiting = waiter {
                    waiting.waiters[id] = nil
                } else if !waiting.isOpen {
                    waiting.waiters[id] = .cancelledBeforeWaiting
                }
                return waiter
            }
            if case .waiting(let continuation) = waiter {
                continuation.resume(throwing: CancellationError())
            }
        }
    }
}

/// What an ``AwaitGate`` side effect saw, one line per event: "label started",
/// "label cancelled (Task.isCancelled: true)", "label finished".
typealias EventLog = LockedList<String>

/// An async side effect that records its start, waits at a gate, and records how it ended; its
/// value is its label. It may name a cancellation id, with or without "latest wins".
struct AwaitGate: AsyncSideEffect {
    let label: String
    let gate: AsyncGate
    let events: EventLog
    var id: SideEffectID? = nil
    var latestWins = false

    var cancellationID: SideEffectID? { id }
    var cancelsInFlight: Bool { latestWins }

    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws -> String {
        events.append("\(label) started")
        do {
            try await gate.wait()
            try Task.checkCancellation()
        } catch {
            events.append("\(label) cancelled (Task.isCancelled: \(Task.isCancelled))")
            throw error
        }
        events.append("\(label) finished")
        return label
    }
}

/// An async side effect that checks for cancellation without awaiting anything: it runs to its
/// end on the thread that starts it and records whether its task was cancelled.
struct CheckCancellation: AsyncSideEffect {
    let events: EventLog
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws {
        events.append("ran (Task.isCancelled: \(Task.isCancelled))")
        try Task.checkCancellation()
    }
}

extension PartialStore {
    /// Suspends until the store refuses items from outside: its shutdown has begun. Polled: the
    /// store signals when it runs out of work, not when a shutdown begins.
    func shutdownHasBegun() async throws {
        try await poll("the shutdown to begin") { isShuttingDown }
    }

    /// Whether no side effect of this store is waiting for a worker or running (async ones until
    /// their body has ended).
    var sideEffectsAreIdle: Bool {
        activeSideEffectCount == 0
    }
}


/// An updater that holds the store's updater queue until `release` opens.
struct HoldingUpdater: StateUpdater {
    let started: Latch
    let release: Latch
    func updateState(_ state: inout CounterState) {
        started.open()
        release.wait(timeout: holdTimeout)
        state.counter += 1000
    }
}

/// A synchronous side effect that holds its worker until `release` opens, then does `then`.
struct HoldingSideEffect: SideEffect {
    let started: Latch
    let release: Latch
    var then: @Sendable (SideEffectContext<CounterState, TestDependencies>) throws -> Void = { _ in }
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        started.open()
        guard release.wait(timeout: holdTimeout) else { throw TimedOut(waitingFor: "the release", after: holdTimeout) }
        try then(context)
    }
}

/// One of a store's threads held by a holding fixture that has started: its promise, and
/// ``release()``, which lets it go.
struct Hold: Sendable {
    let promise: Promise<Void>
    private let latch: Latch

    init(promise: Promise<Void>, latch: Latch) {
        self.promise = promise
        self.latch = latch
    }

    func release() {
        latch.open()
    }
}

extension Store where S == CounterState, D == TestDependencies {
    /// Dispatches a ``HoldingUpdater`` and returns once it holds the store's updater queue: what
    /// is dispatched next waits behind it until ``Hold/release()``.
    func holdUpdaterQueue() async throws -> Hold {
        let (started, release) = (Latch(), Latch())
        let promise = dispatch(HoldingUpdater(started: started, release: release))
        try await started.opened("the holding updater to start")
        return Hold(promise: promise, latch: release)
    }

    /// Dispatches a ``HoldingSideEffect`` and returns once it holds a side-effect worker; once
    /// released, it does `then`.
    func holdWorker(
        then: @escaping @Sendable (SideEffectContext<CounterState, TestDependencies>) throws -> Void = { _ in }
    ) async throws -> Hold {
        let (started, release) = (Latch(), Latch())
        let promise = dispatch(HoldingSideEffect(started: started, release: release, then: then))
        try await started.opened("the holding side effect to start")
        return Hold(promise: promise, latch: release)
    }
}

extension Store where S == CounterState, D == TestDependencies {
    /// Dispatches an ``AwaitGate`` labelled `label` and returns once it waits at its gate: its
    /// promise, the gate, and what it records.
    @discardableResult
    func dispatchWaitingAtAGate(_ label: String) async throws -> (promise: Promise<String>, gate: AsyncGate, events: EventLog) {
        let (gate, events) = (AsyncGate(), EventLog())
        let promise = dispatch(AwaitGate(label: label, gate: gate, events: events))
        try await gate.waitForWaiters(1)
        return (promise, gate, events)
    }
}
