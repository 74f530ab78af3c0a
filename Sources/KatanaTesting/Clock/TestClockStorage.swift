/// The shared, locked part of a ``TestClock``: its ``TestClockState`` behind one lock. Each
/// method takes the lock for one event and resumes what the event released after letting go.
final class TestClockStorage: Sendable {
    typealias Sleeper = CheckedContinuation<Bool, any Error>
    typealias IdleWaiter = CheckedContinuation<Bool, Never>
    typealias Advancer = CheckedContinuation<Void, Never>
    typealias State = TestClockState<Sleeper, IdleWaiter, Advancer>

    // The clock's whole state, guarded by its own lock; no other lock is taken while it is held,
    // and no continuation is resumed while it is held.
    private let state = LockedValue(State())
    // Guarded by its own lock, never held together with `state`'s: observers are called after
    // both are let go, so one may read the clock.
    private let observers = LockedValue<[@Sendable () -> Void]>([])

    func read<Value>(_ body: (State) -> Value) -> Value {
        state.withLock { body($0) }
    }

    func update<Value>(_ body: (inout State) -> Value) -> Value {
        state.withLock { body(&$0) }
    }

    /// Calls `observer` after every change that may leave the clock idle or give it a new sleeper
    /// (see ``TestClock/onChange(_:)``). Observers are kept for the clock's lifetime.
    func onChange(_ observer: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func jobEnqueued() {
        state.withLock { $0.jobEnqueued() }
    }

    func jobFinished() {
        state.withLock { $0.jobFinished() }?.resume(returning: true)
        changed()
    }

    func activityEnded() {
        state.withLock { $0.activityEnded() }?.resume(returning: true)
        changed()
    }

    func wokenSleeperResumed() {
        state.withLock { $0.wokenSleeperResumed() }?.resume(returning: true)
        changed()
    }

    /// Registers a sleep begun with `reserveSleep` (see `TestClockState.registerSleep`), and tells
    /// the observers: a test waiting for a sleeper to appear looks again.
    func registerSleep(id: UInt64, deadline: Duration, sleeper: Sleeper, onClockExecutor: Bool) -> State.Registration {
        let registration = state.withLock {
            $0.registerSleep(id: id, deadline: deadline, sleeper: sleeper, onClockExecutor: onClockExecutor)
        }
        changed()
        return registration
    }

    /// Waits until the clock is idle; false when `timeout` (real time) passed first.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        if state.withLock({ $0.isIdle }) {
            return true
        }
        let token = state.withLock { $0.makeIdleToken() }
        // Detached, so it never runs on (and is never waited for by) any test clock's executor.
        let timer = Task.detached { [self] in
            // A real-time safety net: only a clock that never becomes idle waits this long.
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            state.withLock { $0.idleWaitTimedOut(token: token) }?.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { waiter in
            switch state.withLock({ $0.awaitIdle(token: token, waiter: waiter) }) {
            case .idle: waiter.resume(returning: true)
            case .timedOut: waiter.resume(returning: false)
            case .wait: break
            }
        }
    }

    /// Tells every observer that the clock changed; called with no lock held.
    private func changed() {
        // Copied out, so an observer that registers another one does not wait for this lock.
        for observer in observers.withLock({ $0 }) {
            observer()
        }
    }
}
