import Dispatch

/// Something that runs closures: the store uses executors to decide where its state initializer
/// and its listeners run.
///
/// `executeSync` must be reentrant: called from code already running on the executor, it runs the
/// closure inline instead of deadlocking.
public protocol Executor: Sendable {
    /// Schedules `block` to run later (or now, for an immediate executor).
    func executeAsync(_ block: @escaping @Sendable () -> Void)

    /// Runs `block` on the executor and waits for it to finish.
    func executeSync<T>(_ block: () throws -> T) rethrows -> T

    /// Katana 6's name for ``executeAsync(_:)``, kept so executors written for Katana compile.
    @available(*, deprecated, renamed: "executeAsync(_:)")
    func execute(_ block: @escaping @Sendable () -> Void)
}

extension Executor {
    /// Schedules `block` with ``executeAsync(_:)``.
    @available(*, deprecated, renamed: "executeAsync(_:)")
    public func execute(_ block: @escaping @Sendable () -> Void) {
        executeAsync(block)
    }
}

/// The name Katana 6 used for ``Executor``.
@available(*, deprecated, renamed: "Executor")
public typealias AsyncProvider = Executor

/// Tags each queue `executeSync` is called on, so a call made from code running on that queue can
/// tell it is already there.
private let executorQueueKey = DispatchSpecificKey<ObjectIdentifier>()

extension DispatchQueue: Executor {
    /// Runs `block` asynchronously on the queue.
    public func executeAsync(_ block: @escaping @Sendable () -> Void) {
        async(execute: block)
    }

    /// Runs `block` on the queue and waits; runs it inline when the caller is already on the queue
    /// (or on a queue that targets it), however the running code got there.
    public func executeSync<T>(_ block: () throws -> T) rethrows -> T {
        // Tag the queue (once is enough; tagging again is harmless), then ask whether the code
        // running now is on it: Dispatch looks the tag up through the current queue's targets.
        let identity = ObjectIdentifier(self)
        setSpecific(key: executorQueueKey, value: identity)
        if DispatchQueue.getSpecific(key: executorQueueKey) == identity {
            return try block()
        }
        if self === DispatchQueue.main && isMainThreadForExecutors() {
            return try block()
        }
        return try sync(execute: block)
    }
}

#if canImport(Foundation)
import Foundation

private func isMainThreadForExecutors() -> Bool {
    Thread.isMainThread
}
#else
private func isMainThreadForExecutors() -> Bool {
    false
}
#endif

/// Runs every closure right away, on the calling thread.
///
/// Use it for listeners that must see changes with no delay (they then run on the store's updater
/// queue, so they must be quick and must not wait on promises).
public struct ImmediateExecutor: Executor {
    /// Creates the executor.
    public init() {}

    /// Runs `block` now, on the calling thread.
    public func executeAsync(_ block: @escaping @Sendable () -> Void) {
        block()
    }

    /// Runs `block` now, on the calling thread.
    public func executeSync<T>(_ block: () throws -> T) rethrows -> T {
        try block()
    }
}
