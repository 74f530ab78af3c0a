import Katana

extension TestStore {
    /// Moves the test clock `duration` forward: each sleeper due on the way wakes at its own
    /// deadline, and after each wake-up the store settles (what the woken side effect dispatched
    /// is handled) before the clock moves on, so a side effect that sleeps again within the
    /// advanced time is woken again.
    public func advance(
        by duration: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard duration >= .zero else {
            fail("advance(by: \(duration)): the duration is negative, and a test clock only moves forward.", at: location)
            return
        }
        let target = clock.now.advanced(by: duration)
        _ = await settle()
        while let next = clock.sleepers.first, next.deadline <= target {
            await clock.advance(to: next.deadline, fileID: fileID, filePath: filePath, line: line, column: column)
            if !(await settle()) {
                fail("After the test clock reached \(next.deadline), the store did not settle within \(timeout): \(busyDescription())", at: location)
                return
            }
        }
        if clock.now < target {
            await clock.advance(to: target, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        _ = await settle()
    }
}
