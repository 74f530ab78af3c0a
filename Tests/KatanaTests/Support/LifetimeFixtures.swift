import Foundation
@testable import Katana

/// A gate async code waits at until the test opens it; a waiting task that is cancelled stops
/// waiting at once with `CancellationError`, as a cancellable `await` does.
final class AsyncGate: @unchecked Sendable {
    // @unchecked: every stored property is only touched under `lock`.
    private enum Waiter {
        case waiting(CheckedContinuation<Void, any Error>)
        case cancelledBeforeWaiting
    }

    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [Int: Waiter] = [:]
    private var nextID = 0

    /// Lets every waiter through, now and later.
    func open() {
        lock.lock()
        isOpen = true
        let resumed = waiters.values
        waiters = [:]
        lock.unlock()
        for case .waiting(let continuation) in resumed {
            continuation.resume()
        }
    }

    /// How many tasks wait at the gate.
    var waitingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return waiters.values.filter { if case .waiting = $0 { true } else { false } }.count
    }

    /// Waits until the gate opens; throws `CancellationError` if the task is cancelled first.
    func wait() async throws {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if isOpen {
                    lock.unlock()
                    continuation.resume()
                } else if case .cancelledBeforeWaiting = waiters[id] {
                    waiters[id] = nil
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = .waiting(continuation)
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiter = waiters[id]
            if case .waiting = waiter {
                waiters[id] = nil
            } else if !isOpen {
                waiters[id] = .cancelledBeforeWaiting
            }
            lock.unlock()
            if case .waiting(let continuation) = waiter {
                continuation.resume(throwing: CancellationError())
            }
        }
    }
}

/// What an ``AwaitGate`` side effect saw, one line per event: "label started",
/// "label cancelled (Task.isCancelled: true)", "label finished".
typealias EventLog = Recorder<String>

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
    /// Whether no side effect of this store is waiting for a worker or running (async ones until
    /// their body has ended).
    var sideEffectsAreIdle: Bool {
        activeSideEffectCount == 0
    }
}

/// How long the holding fixtures below wait for their release before giving up: far longer than
/// any test takes, even under the thread sanitizer on a loaded machine, so that a hold never ends
/// by itself in the middle of a test (the shared `BlockingUpdater`'s 20 s did, under load).
let holdTimeout: Duration = .seconds(300)

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

/// A synchronous side effect that holds its worker until `release` opens.
struct HoldingSideEffect: SideEffect {
    let started: Latch
    let release: Latch
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        started.open()
        guard release.wait(timeout: holdTimeout) else { throw TimedOut(after: holdTimeout) }
    }
}
