import Dispatch

extension Promise {
    /// Blocks the calling thread until the promise settles, then returns its value or throws its error.
    ///
    /// Throws ``KatanaError/waitTimedOut(after:)`` when `timeout` passes first. Waiting on a store's
    /// own updater queue (inside an updater, an interceptor or an immediate listener) would deadlock,
    /// so it throws ``KatanaError/waitOnStoreQueue`` at once instead. Prefer ``value`` in async code.
    ///
    /// Waiting for a dispatch whose item the store has not started yet, while the store is idle,
    /// handles that item (and any waiting before it) on the calling thread, as `DispatchQueue.sync`
    /// does, instead of sleeping until the store's queue wakes up; it is still one item at a time,
    /// in dispatch order.
    @discardableResult
    public func wait(timeout: Duration) throws -> Value {
        if Value.self == Void.self {
            // The common case, waiting for a dispatched updater, takes a path of its own
            // (docs/PERFORMANCE.md, "Round trip: dispatch one updater + wait").
            try Promise<Void>(core: Unsafe.downcast(core, to: PromiseCore<Void>.self)).blockingWait(timeout: timeout)
            return Unsafe.void(as: Value.self)
        }
        return try genericWait(timeout: timeout)
    }

    /// ``wait(timeout:)`` for any other value type, apart from the `Void` case (docs/PERFORMANCE.md,
    /// "Side effects: no-op AsyncSideEffect").
    @inline(never)
    private func genericWait(timeout: Duration) throws -> Value {
        try blockingWait(timeout: timeout)
    }

    /// The body of ``wait(timeout:)``.
    @inline(__always)
    private func blockingWait(timeout: Duration) throws -> Value {
        if let outcome {
            return try outcome.get()
        }
        if StoreQueueMarker.isOnStoreQueue {
            throw KatanaError.waitOnStoreQueue
        }
        helpSettle()
        if let outcome {
            return try outcome.get()
        }
        let announcement = BlockingWait.begin()
        defer { announcement.end() }
        let semaphore = DispatchSemaphore(value: 0)
        let received = Locked<Outcome?>(nil)
        observe { outcome in
            received.withLock { $0 = outcome }
            semaphore.signal()
        }
        if semaphore.wait(timeout: DispatchTime.now() + timeout.dispatchInterval) == .timedOut {
            throw KatanaError.waitTimedOut(after: timeout)
        }
        guard let outcome = received.withLock({ $0 }) else {
            throw KatanaError.waitTimedOut(after: timeout)
        }
        return try outcome.get()
    }

    /// The fulfilled value, awaited without blocking a thread; throws the rejection error.
    public var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                observe { continuation.resume(with: $0) }
            }
        }
    }
}

extension Duration {
    /// The duration as a Dispatch interval, clamped to zero below and to "never" above.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) {
            return .nanoseconds(0)
        }
        let (nanosFromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanos, overflowSum) = nanosFromSeconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow || overflowSum || nanos > Int64(Int.max) {
            return .never
        }
        return .nanoseconds(Int(nanos))
    }
}
