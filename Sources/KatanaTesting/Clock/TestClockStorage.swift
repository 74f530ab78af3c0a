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

    func read<Value>(_ body: (State) -> Value) -> Value {
        state.withLock { body($0) }
    }

    func update<Value>(_ body: (inout State) -> Value) -> Value {
        state.withLock { body(&$0) }
    }

    func jobEnqueued() {
        state.withLock { $0.jobEnqueued() }
    }

    func jobFinished() {
        state.withLock { $0.jobFinished() }?.resume(returning: true)
    }

    func activityEnded() {
        state.withLock { $0.activityEnded() }?.resume(returning: true)
    }

    func wokenSleeperResumed() {
        state.withLock { $0.wokenSleeperResumed() }?.resume(returning: true)
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
}
