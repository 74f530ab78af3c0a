import Dispatch

/// The queue-hop floor's work: `hops` blocks sent with `async` onto `queue` (a serial queue), each
/// counting itself, and a wait for the last. Returns how many ran, for the caller to check.
/// The benchmarks' floor and `KatanaProfile hops` time this same code.
public func hop(onto queue: DispatchQueue, times hops: Int) -> Int {
    let counter = QueueCounter()
    let done = DispatchSemaphoreBox()
    for index in 0 ..< hops {
        queue.async {
            counter.value &+= 1
            if index == hops - 1 {
                done.signal()
            }
        }
    }
    done.wait()
    return counter.value
}

/// A counter touched only on one serial queue.
private final class QueueCounter: @unchecked Sendable {
    // Only touched on the serial queue the blocks hop onto; read after the last block signalled.
    var value = 0
}
