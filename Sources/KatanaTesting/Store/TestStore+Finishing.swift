import Katana

extension TestStore {
    /// Adds a listener that may throw: an error it throws fails the test at ``finish(fileID:filePath:line:column:)``.
    @discardableResult
    public func addListener(_ listener: @escaping @Sendable (_ old: S, _ new: S) throws -> Void) -> StoreUnsubscribe {
        let errors = listenerErrors
        return store.addListener { old, new in
            do {
                try listener(old, new)
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
    }

    /// Waits (bounded) for the store to settle, fails on what the test left behind, and shuts the
    /// store down (cancelling what still runs): received items not asserted (a note with
    /// `.off(showSkipped: true)`, nothing with `.off`), side effects still running, promises of
    /// sent items that have not settled, and errors thrown by listeners. Later calls do nothing.
    public func finish(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard finished.withLock({ wasFinished in defer { wasFinished = true }; return !wasFinished }) else { return }
        let settled = await settle()
        if exhaustivity.showsSkipped {
            for item in log.withLock({ $0.skipAllUnasserted() }) {
                note("Skipped the received \(item.typeName) (#\(item.index)): no receive asserted it.", at: location)
            }
        }
        let problems = leftovers(settled: settled)
        if !problems.isEmpty {
            fail("The test ended with work left behind:\n" + problems.joined(separator: "\n"), at: location)
        }
        await store.shutdown(.cancelWork, deadline: .zero)
    }

    /// What the test left behind, one line each.
    func leftovers(settled: Bool) -> [String] {
        var lines: [String] = []
        if exhaustivity.isOn {
            let unasserted = log.withLock { $0.unassertedItems }
            if !unasserted.isEmpty {
                lines.append("• \(Self.counted(unasserted.count, "received item", "received items")) not asserted with receive:")
                lines += unasserted.map { "    \($0.typeName) (#\($0.index))" }
            }
        }
        let running = log.withLock { $0.runningSideEffectItems }
        if !running.isEmpty {
            lines.append("• \(Self.counted(running.count, "side effect", "side effects")) still running:")
            lines += running.map { "    \($0.typeName) (#\($0.index))" }
        }
        let sleepers = clock.sleepers
        if !sleepers.isEmpty {
            lines.append("• \(Self.counted(sleepers.count, "sleep", "sleeps")) still waiting on the test clock (now \(clock.now)): until " + sleepers.map { "\($0.deadline)" }.joined(separator: ", ") + "; advance the clock, or cancel the side effects")
        }
        if !settled {
            lines.append("• the store did not settle within \(timeout): \(busyDescription())")
        }
        let pending = sends.withLock { $0.filter { $0.promise.isPending } }
        if !pending.isEmpty {
            lines.append("• \(Self.counted(pending.count, "promise of a sent item", "promises of sent items")) not settled:")
            lines += pending.map { "    \($0.typeName), sent at \($0.location.fileID):\($0.location.line)" }
        }
        let thrown = listenerErrors.withLock { $0 }
        if !thrown.isEmpty {
            lines.append("• \(Self.counted(thrown.count, "listener call", "listener calls")) threw:")
            lines += thrown.map { "    \($0)" }
        }
        return lines
    }
}
