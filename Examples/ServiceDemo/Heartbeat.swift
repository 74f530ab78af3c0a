import Foundation
import NotificationBridge

/// The heartbeat timer: posts ``Notification/Name/heartbeat`` through the bridge at the interval
/// the configuration asks for, re-created when a reload changes it, and stopped for good by the
/// shutdown.
final class Heartbeat: @unchecked Sendable {
    // @unchecked: `schedule` and `timer` are only touched while holding `lock`; `bridge` is Sendable.
    private let bridge: NotificationBridge
    private let lock = NSLock()
    private var schedule = HeartbeatSchedule()
    private var timer: NotificationBridgeSubscription?

    init(bridge: NotificationBridge) {
        self.bridge = bridge
    }

    /// Makes the timer fire every `interval`; returns whether it was (re-)created. Does nothing
    /// once ``stop()`` has been called.
    @discardableResult
    func schedule(every interval: Duration) throws -> Bool {
        // The bridge is called with the lock held, so a `stop()` on another thread cannot slip
        // between deciding to start a timer and starting it (the bridge never calls back into this
        // object, so holding the lock cannot dead-lock).
        try lock.withLock {
            guard case .start(let interval) = schedule.schedule(every: interval) else { return false }
            timer?.cancel()
            timer = nil
            do {
                timer = try bridge.post(.heartbeat, every: interval)
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
