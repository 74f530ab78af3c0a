@testable import KatanaTesting

/// The outcome of waiting, for a bounded time, for a task to end.
enum BoundedOutcome<Success: Sendable>: Sendable {
    case finished(Result<Success, any Error>)
    case timedOut
}

/// Waits at most `timeout` (real time) for `task` to end, without ever waiting longer even if
/// the task never ends; a task still running then is cancelled.
func outcome<Success: Sendable, Failure: Error>(
    of task: Task<Success, Failure>,
    within timeout: Duration = .seconds(5)
) async -> BoundedOutcome<Success> {
    let resumed = LockedValue(false)
    var timer: Task<Void, Never>?
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<BoundedOutcome<Success>, Never>) in
        @Sendable func finish(_ outcome: BoundedOutcome<Success>) {
            let first = resumed.withLock { resumed in
                defer { resumed = true }
                return !resumed
            }
            if first { continuation.resume(returning: outcome) }
        }
        Task { finish(.finished(await task.result.mapError { $0 as any Error })) }
        timer = Task {
            try? await Task.sleep(for: timeout)
            finish(.timedOut)
        }
    }
    timer?.cancel()
    if case .timedOut = outcome {
        task.cancel()
    }
    return outcome
}

/// Polls `condition` until it holds or `timeout` (real time) passes; returns whether it held.
/// For conditions nothing signals, such as a task outside the test clock's executor reaching its
/// sleep.
func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        guard clock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// A list that tasks append to from any thread.
final class SharedLog<Element: Sendable>: Sendable {
    private let elements = LockedValue<[Element]>([])

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    var all: [Element] {
        elements.withLock { $0 }
    }
}

/// Whether this system has task executors, which the test clock needs to see the tasks it waits
/// for (every Linux; macOS 15, iOS 18 and their peers).
let clockExecutorIsAvailable: Bool = {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        return true
    }
    return false
}()

/// Starts `operation` on the clock's executor where the system has one (suites that depend on it
/// are enabled only there, so the fallback only keeps the tests compiling on older systems).
@discardableResult
func startOnClock<Success: Sendable>(
    _ clock: TestClock,
    _ operation: sending @escaping () async throws -> Success
) -> Task<Success, any Error> {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        return clock.startTask(operation)
    }
    return Task(operation: operation)
}
