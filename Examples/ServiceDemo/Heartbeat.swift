import Foundation
import NotificationBridge

/// A running heartbeat timer, as ``Heartbeat`` sees it: something it can cancel.
protocol HeartbeatTimer: Sendable {
    func cancel()
}

extension NotificationBridgeSubscription: HeartbeatTimer {}

/// The heartbeat timer: posts ``Notification/Name/heartbeat`` through the bridge at the interval
/// the configuration asks for, re-created when a reload changes it, and stopped for good by the
/// shutdown.
final class Heartbeat: @unchecked Sendable {
    // @unchecked: `schedule`, `timer` and `startTimer` are only touched while holding `lock`.
    /// Starts a timer that posts the heartbeat at an interval.
    typealias StartTimer = @Sendable (_ interval: Duration) throws -> any HeartbeatTimer

    private let lock = NSLock()
    private var schedule = HeartbeatSchedule()
    private var timer: (any HeartbeatTimer)?
    private var startTimer: StartTimer

    init(bridge: NotificationBridge) {
        startTimer = { interval in try bridge.post(.heartbeat, every: interval) }
    }

    /// Starts the timers some other way from now on: a test's timer on its test clock, so the
    /// heartbeat ticks when the test advances time.
    func useTimers(_ start: @escaping StartTimer) {
        lock.withLock { startTimer = start }
    }

    /// Makes the timer fire every `interval`; returns whether it was (re-)created. Does nothing
    /// once ``stop()`` has been called.
    @discardableResult
    func schedule(every interval: Duration) throws -> Bool {
        // The timer is started with the lock held, so a `stop()` on another thread cannot slip
        // between deciding to start a timer and starting it (a timer never calls back into this
        // object, so holding the lock cannot dead-lock).
        try lock.withLock {
            guard case .start(let interval) = schedule.schedule(every: interval) else { return false }
            timer?.cancel()
            timer = nil
            do {
                timer = try startTimer(interval)
            } catch {
                schedule.timerFailedToStart()
                throw error
            }
            return true
        }
    }

    /// Stops the timer for good.
    func stop() {
        lock.withLock {
            if schedule.stop() == .cancel {
                timer?.cancel()
                timer = nil
            }
        }
    }
}
