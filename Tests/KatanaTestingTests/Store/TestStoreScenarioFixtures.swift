import Foundation
import Katana
import KatanaTesting
import KatanaTestSupport

// Items, interceptors and helpers for the test-store suites, beyond the shared ones in
// TestStoreFixtures.swift.

/// An error with a readable description, thrown by interceptors, listeners and assertions.
struct Refused: Error, CustomStringConvertible {
    let reason: String
    var description: String {
        "refused: \(reason)"
    }
}

/// Changes both fields at once: the counter by `amount`, and the log.
struct AddAndNote: StateUpdater {
    var amount = 1
    func updateState(_ state: inout Counting) {
        state.counter += amount
        state.log.append("added \(amount)")
    }
}

/// A synchronous side effect that dispatches a `Note`, then an `Add`, each waited for.
struct NoteThenAdd: SideEffect {
    var text = "first"
    var amount = 1
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) throws {
        try context.dispatch(Note(text: text)).wait(timeout: defaultTestTimeout)
        try context.dispatch(Add(amount: amount)).wait(timeout: defaultTestTimeout)
    }
}

/// An async side effect that returns the counter without suspending.
struct ReadCounter: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws -> Int {
        context.getState().counter
    }
}

/// A synchronous side effect that dispatches the dependencies' amount (used at the start).
struct AddTheDependencyAmount: SideEffect {
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) throws {
        try context.dispatch(Add(amount: context.dependencies.amount)).wait(timeout: defaultTestTimeout)
    }
}

/// Something a side effect awaits that is neither the store nor the test clock; only the test
/// (or the task's cancellation) opens it. A test awaits a waiter's arrival with
/// ``waitForWaiters(_:)``, woken by the arrival.
final class Gate: Sendable {
    private struct Waiting {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let waiting = LockedValue(Waiting())
    /// One element per waiter that arrived (appended after the gate's lock is let go).
    private let arrivals = LockedList<Void>()

    /// Returns once the gate is open, or the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isOpen = waiting.withLock { waiting in
                    if !waiting.isOpen {
                        waiting.waiters.append(continuation)
                    }
                    return waiting.isOpen
                }
                if isOpen {
                    continuation.resume()
                } else {
                    arrivals.append(())
                }
            }
        } onCancel: {
            open()
        }
    }

    /// Opens the gate for every waiter, present and future.
    func open() {
        let waiters = waiting.withLock { waiting in
            waiting.isOpen = true
            defer { waiting.waiters = [] }
            return waiting.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// How many waiters wait now.
    var waiterCount: Int {
        waiting.withLock { $0.waiters.count }
    }

    /// Suspends until `count` waiters wait at the gate.
    func waitForWaiters(_ count: Int) async throws {
        try await arrivals.waitUntil("\(count) waiter(s) at the gate") { [self] _ in waiterCount == count }
    }
}

/// An async side effect that waits for a gate, then adds 1.
struct AwaitGate: AsyncSideEffect {
    let gate: Gate
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws {
        await gate.wait()
        try await context.dispatch(Add()).value
    }
}

/// A synchronous side effect that dispatches an `AwaitGate` without waiting for it.
struct LaunchGateWait: SideEffect {
    let gate: Gate
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) throws {
        context.dispatch(AwaitGate(gate: gate))
    }
}

/// An async side effect that adds 1 after a real-time pause (not on the test clock), telling the
/// store about the pause as work outside it, so that a test store settling waits for the `Add`.
struct AddAfterOutsideWork: AsyncSideEffect {
    var pause: Duration = .milliseconds(50)
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws {
        let work = context.beginOutsideWork()
        try await Task.sleep(for: pause)
        context.dispatch(Add())
        work.end()
    }
}

/// An async side effect that adds 1 after a real-time pause, holding the test clock with an
/// activity meanwhile, so that a test store settling waits for the `Add`.
struct AddWhileHoldingTheClock: AsyncSideEffect {
    var pause: Duration = .milliseconds(50)
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws {
        let holding = (context.dependencies.clock as? TestClock)?.beginActivity()
        try await Task.sleep(for: pause)
        context.dispatch(Add())
        holding?.end()
    }
}

/// An async side effect that waits for a gate, then for a real-time pause that nothing holds the
/// store or the clock for, then adds 1: a test store settles before the `Add`, and receives it.
struct AddAfterGateAndPause: AsyncSideEffect {
    let gate: Gate
    var pause: Duration = .milliseconds(100)
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws {
        await gate.wait()
        try await Task.sleep(for: pause)
        context.dispatch(Add())
    }
}

/// A debounced search: each one cancels the one in flight, waits 300 ms on the clock, then notes
/// its query. Only the last of a quick burst notes anything.
struct DebouncedSearch: AsyncSideEffect {
    let query: String
    var cancellationID: SideEffectID? { "search" }
    var cancelsInFlight: Bool { true }
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws {
        try await context.dependencies.clock.sleep(for: .milliseconds(300))
        try await context.dispatch(Note(text: "search \(query)")).value
    }
}

/// An app interceptor that does not pass on an `Add` of `amount` (and passes on everything else).
func blocking(amount: Int) -> StoreInterceptor {
    { _ in
        { next in
            { item in
                if let add = item as? Add, add.amount == amount {
                    return
                }
                try next(item)
            }
        }
    }
}

/// An app interceptor that throws for an `Add` of `amount` (and passes on everything else).
func rejecting(amount: Int) -> StoreInterceptor {
    { _ in
        { next in
            { item in
                if let add = item as? Add, add.amount == amount {
                    throw Refused(reason: "no \(amount)")
                }
                try next(item)
            }
        }
    }
}
