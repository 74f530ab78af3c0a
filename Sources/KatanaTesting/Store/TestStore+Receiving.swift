import Katana

extension TestStore {
    /// Checks that the next item the store handled on its own (not sent by the test) is an `Item`,
    /// waiting up to `timeout` (default: ``timeout``) for it to arrive, and that it changed the
    /// state as `updateExpectedState` says (for a side effect: the state when its body returned,
    /// or when its task started). With ``Exhaustivity/off``, received items of other types are
    /// skipped.
    public func receive<Item: Dispatchable>(
        _ type: Item.Type,
        timeout: Duration? = nil,
        assert updateExpectedState: ((_ state: inout S) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(String(reflecting: Item.self), timeout: timeout, matching: { $0 is Item }, updateExpectedState, at: location)
    }

    /// Checks that the next item the store handled on its own is one that `predicate` accepts
    /// (`description` names it in messages); otherwise as ``receive(_:timeout:assert:fileID:filePath:line:column:)``.
    public func receive(
        _ description: String,
        timeout: Duration? = nil,
        where predicate: @escaping @Sendable (any Dispatchable) -> Bool,
        assert updateExpectedState: ((_ state: inout S) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(description, timeout: timeout, matching: predicate, updateExpectedState, at: location)
    }

    /// Waits (until `timeout`, or ``timeout``) for the next received item not asserted yet, and
    /// checks it against `matching` and `updateExpectedState`. The wait wakes on the store's
    /// activity signal, which the recording pokes each time it logs an item's begin or end.
    private func receive(
        _ description: String,
        timeout: Duration?,
        matching: (any Dispatchable) -> Bool,
        _ updateExpectedState: ((inout S) throws -> Void)?,
        at location: TestSourceLocation
    ) async {
        let wait = timeout ?? self.timeout
        let deadline = ContinuousClock.now + wait
        while true {
            // Past the deadline the log is still read once, so an item that came in time is taken
            // (in progress or not) however late a starved test process wakes.
            _ = await store.waitUntilQuiet(until: deadline) {
                log.withLock { $0.nextUnassertedIsDone }
            }
            guard let next = log.withLock({ $0.nextUnasserted }) else {
                fail("Expected to receive \(description) within \(wait), but the store handled nothing more on its own (\(busyDescription())).", at: location)
                return
            }
            if matching(next.item) {
                log.withLock { $0.markNextAsserted() }
                check(before: next.stateBefore, actual: next.stateAfter ?? next.stateBefore, updateExpectedState, after: "receiving \(description)", at: location)
                return
            }
            if exhaustivity.isOn {
                fail("Expected to receive \(description), but the next item the store handled on its own was \(next.typeName) (#\(next.index)). Receive it first, or set exhaustivity to .off to skip it.", at: location)
                return
            }
            log.withLock { $0.markNextAsserted() }
            if exhaustivity.showsSkipped {
                note("Skipped the received \(next.typeName) (#\(next.index)) while waiting to receive \(description).", at: location)
            }
        }
    }

    /// Lets the store settle, then marks every received item not asserted yet as asserted, without
    /// checking it: for an exhaustive test that does not care what some step dispatched. Returns
    /// how many were skipped; with `.off(showSkipped: true)` each is also reported as a note.
    @discardableResult
    public func skipReceivedItems(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Int {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        if !(await settle()) {
            fail("Before skipping the received items, the store did not settle within \(timeout): \(busyDescription())", at: location)
        }
        let skipped = log.withLock { $0.skipAllUnasserted() }
        if exhaustivity.showsSkipped {
            for item in skipped {
                note("Skipped the received \(item.typeName) (#\(item.index)) with skipReceivedItems().", at: location)
            }
        }
        return skipped.count
    }
}
