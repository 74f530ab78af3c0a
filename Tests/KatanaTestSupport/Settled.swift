import Katana

extension Promise {
    /// The promise's value, awaited without blocking a thread: throws its rejection, or
    /// ``TimedOut`` if it has not settled within `timeout`. What a test awaits its dispatches
    /// with: `wait(timeout:)` would hold one of Swift concurrency's threads, which the store's
    /// async side effects and the other tests running at the same time need.
    @discardableResult
    public func settled(timeout: Duration = defaultTestTimeout) async throws -> Value {
        try await withTimeout("a \(Value.self) promise to settle", timeout: timeout) { try await self.value }
    }
}
