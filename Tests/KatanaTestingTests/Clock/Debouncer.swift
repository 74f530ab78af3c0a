import KatanaTesting
import KatanaTestSupport

/// Emits the last value sent once no other value came for `interval`: each value cancels the
/// wait of the one before.
final class Debouncer: Sendable {
    let clock: TestClock
    let interval: Duration
    let emitted = LockedList<String>()
    private let pending = LockedValue<Task<Void, any Error>?>(nil)

    init(clock: TestClock, interval: Duration) {
        self.clock = clock
        self.interval = interval
    }

    func send(_ value: String) {
        let clock = clock
        let interval = interval
        let emitted = emitted
        let next = startOnClock(clock) {
            try await clock.sleep(for: interval)
            emitted.append("\(value)@\(clock.now)")
        }
        pending.withLock { pending in
            pending?.cancel()
            pending = next
        }
    }
}
