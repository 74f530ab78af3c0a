import Foundation

/// Runs `operation`, and throws ``TimedOut`` (naming `what`) if it has not finished within
/// `timeout`; the operation is then cancelled (a server's run, a socket's read stop). An operation
/// that ignores cancellation (awaiting a promise, say) is left to finish on its own: the test goes
/// on without it.
public func withTimeout<T: Sendable>(
    _ what: String, timeout: Duration = defaultTestTimeout, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = LockedValue<CheckedContinuation<T, any Error>?>(nil)
    // Set just after the timer starts: a timer that ends before then (a zero timeout) leaves the
    // operation running, as one that ignores cancellation would.
    let running = LockedValue<Task<Void, Never>?>(nil)
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        outcome.withLock { $0 = continuation }
        /// Resumes the wait once: the first of the operation and the timer wins.
        @Sendable func finish(_ result: Result<T, any Error>) {
            outcome.withLock { pending in
                defer { pending = nil }
                return pending
            }?.resume(with: result)
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            finish(.failure(TimedOut(waitingFor: what, after: timeout)))
            running.value?.cancel()
        }
        let work = Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            timer.cancel()
            finish(result)
        }
        running.withLock { $0 = work }
    }
}

/// Runs `body` on a thread of its own and returns what it returns, without blocking a thread of
/// Swift concurrency's shared pool: for a blocking call a test is about (`Promise.wait`, a
/// semaphore, a child process). Throws ``TimedOut`` if it has not returned within `timeout`; the
/// thread is then left to finish on its own.
public func onThreadOfItsOwn<T: Sendable>(
    _ what: String, timeout: Duration = defaultTestTimeout, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withTimeout(what, timeout: timeout) {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.start()
        }
    }
}
