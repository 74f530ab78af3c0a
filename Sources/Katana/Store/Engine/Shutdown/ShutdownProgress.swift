/// Where a store is in its shutdown, and who waits for its end: a plain value, tested without
/// threads (`ShutdownProgressTests`). The engine keeps one behind a lock.
///
///     running ─begin─▶ shuttingDown ─finish─▶ finished(report)
///
/// Only the first ``begin()`` carries the shutdown out; later callers, and `runUntilShutdown()`, wait for its
/// report (a waiter may come before any shutdown has begun).
struct ShutdownProgress<Waiter> {
    enum Phase: Equatable {
        /// The store runs normally.
        case running
        /// A shutdown is being carried out.
        case shuttingDown
        /// The shutdown is over.
        case finished(ShutdownReport)
    }

    /// What a caller of ``begin()`` does.
    enum Begin: Equatable {
        /// Carry the shutdown out, then ``finish(with:)``.
        case carryOut
        /// Another caller carries it out: ``wait(_:)`` for its report.
        case wait
        /// It is over already: this is the report.
        case finished(ShutdownReport)
    }

    private(set) var phase = Phase.running
    /// Those waiting for the report.
    private var waiters: [Waiter] = []

    /// How many wait for the report.
    var waiterCount: Int {
        waiters.count
    }

    /// A shutdown is asked for.
    mutating func begin() -> Begin {
        switch phase {
        case .running:
            phase = .shuttingDown
            return .carryOut
        case .shuttingDown:
            return .wait
        case .finished(let report):
            return .finished(report)
        }
    }

    /// Someone waits for the end of the shutdown, which may not have begun. Returns the report
    /// when it is over already (the waiter is then not kept).
    mutating func wait(_ waiter: Waiter) -> ShutdownReport? {
        if case .finished(let report) = phase {
            return report
        }
        waiters.append(waiter)
        return nil
    }

    /// The shutdown is over: returns the waiters to resume with `report`.
    mutating func finish(with report: ShutdownReport) -> [Waiter] {
        phase = .finished(report)
        defer { waiters = [] }
        return waiters
    }
}
