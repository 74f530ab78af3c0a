/// What a store's shutdown did: returned by `shutdown(_:deadline:gracePeriod:)`, for a service's log.
public struct ShutdownReport: Sendable, Hashable, CustomStringConvertible {
    /// Items the store took for handling after the shutdown began: those waiting when it began,
    /// and those the store's own work dispatched while it finished.
    public let handled: Int
    /// Items and side effects the shutdown cancelled: items that were still waiting (their
    /// promises are rejected with ``KatanaError/cancelledByShutdown(item:)``), and async side
    /// effects whose task it cancelled.
    public let cancelled: Int
    /// Side effects still running when the shutdown returned: they went on past the deadline and
    /// the grace period (a synchronous side effect cannot be stopped; an async one may ignore its
    /// cancellation).
    public let stillRunning: Int

    /// Makes a report (the store makes them; public for tests and logs of the user's own).
    public init(handled: Int, cancelled: Int, stillRunning: Int) {
        self.handled = handled
        self.cancelled = cancelled
        self.stillRunning = stillRunning
    }

    /// One line: "handled 12, cancelled 1, still running 0".
    public var description: String {
        "handled \(handled), cancelled \(cancelled), still running \(stillRunning)"
    }
}
