/// Whether the heartbeat timer runs, and at which interval: a plain value, tested without threads
/// (`HeartbeatScheduleTests`); ``Heartbeat`` keeps one behind its lock and carries out what its
/// methods return.
///
///     idle ─schedule─▶ ticking(interval) ─schedule(other interval)─▶ ticking(other interval)
///     ticking ─timer failed to start─▶ idle
///     idle, ticking ─stop─▶ stopped   (for good: a later schedule does nothing)
struct HeartbeatSchedule: Equatable {
    enum Phase: Equatable {
        /// No timer yet: no configuration has been loaded.
        case idle
        /// A timer fires every `interval`.
        case ticking(interval: Duration)
        /// The service is shutting down: no timer, and none is started again.
        case stopped
    }

    /// What the owner of the timer does next.
    enum Action: Equatable {
        /// Nothing: the timer already runs at this interval, or the heartbeat is stopped.
        case none
        /// Cancel the timer there is (if any) and start one firing every `interval`.
        case start(interval: Duration)
        /// Cancel the timer there is, for good.
        case cancel
    }

    private(set) var phase = Phase.idle

    /// The configuration asks for a heartbeat every `interval` (at start, and after each reload).
    mutating func schedule(every interval: Duration) -> Action {
        switch phase {
        case .idle:
            phase = .ticking(interval: interval)
            return .start(interval: interval)
        case .ticking(let current):
            // A reload that keeps the interval keeps the timer and its rhythm.
            guard current != interval else { return .none }
            phase = .ticking(interval: interval)
            return .start(interval: interval)
        case .stopped:
            // A reload that finishes during the shutdown must not bring the timer back.
            return .none
        }
    }

    /// The timer that ``schedule(every:)`` asked for could not be started: there is none, so the
    /// next schedule starts one, whatever its interval.
    mutating func timerFailedToStart() {
        if case .ticking = phase {
            phase = .idle
        }
    }

    /// The service shuts down: no more heartbeats.
    mutating func stop() -> Action {
        switch phase {
        case .ticking:
            phase = .stopped
            return .cancel
        case .idle, .stopped:
            phase = .stopped
            return .none
        }
    }
}
