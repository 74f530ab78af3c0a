import Dispatch
import Foundation
import Katana
import KatanaTestSupport

/// Every bounded wait in this target uses at most this long per wait: a safety net, longer under
/// the thread sanitizer, where the storms run several times slower and overlap on two cores.
let reliabilityTimeout: Duration = isRunningUnderThreadSanitizer ? .seconds(600) : .seconds(240)

/// Runs `body(thread)` on `threads` threads of their own at once (the storms are about threads)
/// and suspends until all have finished, woken by each one's end; false if they did not finish
/// within `timeout` (the threads are then abandoned, not joined).
@discardableResult
func runConcurrently(threads: Int, timeout: Duration = reliabilityTimeout, _ body: @escaping @Sendable (Int) -> Void) async -> Bool {
    let finished = LockedList<Int>()
    for thread in 0..<threads {
        let worker = Thread {
            body(thread)
            finished.append(thread)
        }
        worker.stackSize = 1 << 20
        worker.start()
    }
    return (try? await finished.waitForCount(threads, timeout: timeout)) != nil
}

/// Suspends until `queue` (a serial queue) has run every block given to it so far.
func drain(_ queue: DispatchQueue) async {
    await withCheckedContinuation { continuation in
        queue.async { continuation.resume() }
    }
}
