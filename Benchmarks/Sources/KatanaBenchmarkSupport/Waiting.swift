import Dispatch
import Katana

/// A semaphore that can be captured by `Sendable` closures and items.
public final class DispatchSemaphoreBox: Sendable {
    public let semaphore: DispatchSemaphore
    public init(_ value: Int = 0) { semaphore = DispatchSemaphore(value: value) }
    public func signal() { semaphore.signal() }
    public func wait() { semaphore.wait() }
}

/// How long a benchmark waits for a promise before it gives up and fails.
public let benchmarkTimeout: Duration = .seconds(120)

extension Promise {
    /// Waits for the promise and stops the process if it is rejected or times out: a benchmark
    /// whose work failed must not report a figure.
    @discardableResult
    public func settled(_ what: @autoclosure () -> String = "benchmark promise") -> Value {
        do {
            return try wait(timeout: benchmarkTimeout)
        } catch {
            fatalError("\(what()) failed: \(error)")
        }
    }
}

/// Stops the process with `message` unless `condition` holds (also in release builds).
public func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fatalError(message())
    }
}
