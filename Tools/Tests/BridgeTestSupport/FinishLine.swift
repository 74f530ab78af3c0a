import Foundation
import Katana

/// An interceptor a test puts first: it counts the items whose trip through the rest of the chain
/// has ended, so the test can wait until what later interceptors do with them is done (a store's
/// promise may settle before its interceptors have returned).
public struct FinishLine: Interceptor {
    public let tally: Tally

    public init(tally: Tally) {
        self.tally = tally
    }

    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        defer { tally.add() }
        try next(item)
    }
}

/// A count that a test waits on, woken by every change.
public final class Tally: @unchecked Sendable {
    // @unchecked: `count` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var count = 0

    public init() {}

    public func add() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the count reaches `target`; false when `timeout` passes first.
    public func wait(for target: Int, timeout: Duration = .seconds(10)) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while count < target {
            if !condition.wait(until: deadline) {
                return count >= target
            }
        }
        return true
    }
}
