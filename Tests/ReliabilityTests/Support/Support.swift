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

/// A deterministic pseudo-random generator (SplitMix64), so every run exercises the same mix.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
