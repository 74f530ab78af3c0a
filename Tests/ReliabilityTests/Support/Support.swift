import Dispatch
import Foundation
import Katana

#if canImport(Glibc)
import Glibc
#endif

/// Every bounded wait in this target uses at most this long per wait: a safety net, longer under
/// the thread sanitizer, where the storms run several times slower and overlap on two cores.
let reliabilityTimeout: Duration = isRunningUnderThreadSanitizer ? .seconds(600) : .seconds(240)

/// A value behind a lock, shared between threads.
final class Shared<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value {
        lock.withLock { value }
    }

    @discardableResult
    func mutate<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }
}

/// A counter shared between threads.
final class Counter: @unchecked Sendable {
    private let shared = Shared(0)

    func increment(by amount: Int = 1) {
        shared.mutate { $0 += amount }
    }

    var value: Int { shared.get() }
}

/// Polls `condition` (every millisecond) until it holds or `timeout` passes; returns whether it held.
func waitUntil(timeout: Duration = reliabilityTimeout, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        if clock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Runs `body(thread)` on `threads` threads at once and returns when all have finished, or
/// false if they did not finish within `timeout` (the threads are then abandoned, not joined).
@discardableResult
func runConcurrently(threads: Int, timeout: Duration = reliabilityTimeout, _ body: @escaping @Sendable (Int) -> Void) async -> Bool {
    let done = Counter()
    for thread in 0..<threads {
        let worker = Thread { body(thread); done.increment() }
        worker.stackSize = 1 << 20
        worker.start()
    }
    return await waitUntil(timeout: timeout) { done.value == threads }
}

/// Runs `body` on a thread of its own and returns what it returns, so that a body that blocks (in
/// `wait(timeout:)`, say) does not hold one of the few threads Swift concurrency runs every test's
/// tasks on (as many as there are cores).
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let worker = Thread { continuation.resume(with: Result { try body() }) }
        worker.stackSize = 1 << 20
        worker.start()
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

/// Whether this process runs under the thread sanitizer (its runtime exports `__tsan_init`).
/// (`dlsym(nil, …)` is `RTLD_DEFAULT` on glibc: it searches the whole process.)
let isRunningUnderThreadSanitizer: Bool = dlsym(nil, "__tsan_init") != nil
