import Foundation
import Testing

/// The reliability suites, run one test at a time.
///
/// Each storm keeps both cores of a small machine busy (several threads dispatching, a store's
/// queue draining, listeners and timers on dispatch queues) for seconds. Run side by side, they
/// hold the threads that Swift's tasks share with dispatch queues on Linux, and the other targets'
/// tests, waiting for a turn on those threads, run past their bounds on a busy machine. One after
/// another they take a little longer in all, and leave the rest of the suite a thread.
@Suite(.serialized) enum ReliabilityStorms {}

extension ReliabilityStorms {
    /// How many times smaller the largest storms run: `KATANA_STORM_DIVISOR`, a whole number from 1
    /// (the default, and what a plain `swift test` runs) up. CI's thread-sanitizer run sets 5: the
    /// sanitizer slows every memory access about tenfold, and what it looks for (two threads
    /// touching the same memory without an order between them) shows in the first thousands of
    /// interleavings as well as in the next hundred thousand, which the plain run still goes through.
    static let divisor: Int = {
        guard let text = ProcessInfo.processInfo.environment["KATANA_STORM_DIVISOR"], let value = Int(text), value >= 1 else {
            return 1
        }
        return value
    }()

    /// `count`, divided by ``divisor`` (at least 1).
    static func scaled(_ count: Int) -> Int {
        max(1, count / divisor)
    }
}
