/// Suspends until `condition` holds, looking again after a pause that grows from 1 ms to 50 ms:
/// for conditions nothing signals (a file, a child process, a socket, a server's answer, which
/// is why `condition` may suspend). A condition about a store waits on the store's signal instead
/// (``Katana/PartialStore/waitUntil(_:timeout:_:)``). Throws ``TimedOut`` after `timeout`, naming
/// `what`.
public func poll(_ what: String, timeout: Duration = defaultTestTimeout, _ condition: () async throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var pause = Duration.milliseconds(1)
    while try await !condition() {
        guard clock.now < deadline else { throw TimedOut(waitingFor: what, after: timeout) }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
}
