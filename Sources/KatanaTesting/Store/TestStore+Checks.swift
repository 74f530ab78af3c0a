import Katana

extension TestStore {
    /// Compares `actual` with `before` changed by the closure (exhaustive), or with `actual`
    /// changed by it (non-exhaustive: only the fields it sets can differ).
    func check(
        before: S,
        actual: S,
        _ updateExpectedState: ((inout S) throws -> Void)?,
        after what: String,
        at location: TestSourceLocation
    ) {
        var expected = exhaustivity.isOn ? before : actual
        do {
            try updateExpectedState?(&expected)
        } catch {
            fail("The state assertion after \(what) threw: \(error)", at: location)
            return
        }
        let equal = Self.areEqual(expected, actual)
        if equal == true {
            return
        }
        if let diff = StateDiff.diff(expected: expected, actual: actual) {
            fail("State after \(what) differs from the expectation \(StateDiff.legend):\n\(diff)", at: location)
        } else if equal == false {
            fail("State after \(what) is not == to the expectation, though the two draw the same:\n\(StateDiff.render(actual))", at: location)
        }
    }

    /// Whether two states are equal by the state's own `==`; nil when the state is not
    /// `Equatable`, and the states are then compared by their drawings only.
    private static func areEqual(_ lhs: S, _ rhs: S) -> Bool? {
        guard let lhs = lhs as? any Equatable else { return nil }
        return lhs.isEqual(to: rhs)
    }

    /// Before a send: received items not asserted fail the test (exhaustive), or are skipped.
    func dealWithUnasserted(before what: String, at location: TestSourceLocation) {
        if exhaustivity.isOn {
            let unasserted = log.withLock { $0.unassertedItems }
            guard !unasserted.isEmpty else { return }
            fail(
                "Before \(what), receive must assert \(Self.counted(unasserted.count, "received item", "received items")): "
                    + unasserted.map { "\($0.typeName) (#\($0.index))" }.joined(separator: ", "),
                at: location
            )
            return
        }
        let skipped = log.withLock { $0.skipAllUnasserted() }
        if exhaustivity.showsSkipped {
            for item in skipped {
                note("Skipped the received \(item.typeName) (#\(item.index)) before \(what).", at: location)
            }
        }
    }

    // MARK: - Reporting

    /// "1 item", "2 items".
    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }

    /// Reports a failure of the test at `location`.
    func fail(_ message: String, at location: TestSourceLocation) {
        reporter.report(TestFailure(message, location: location))
    }

    /// Reports a note (not a failure) at `location`, for skipped items.
    func note(_ message: String, at location: TestSourceLocation) {
        reporter.report(TestFailure(message, severity: .note, location: location))
    }
}

extension Equatable {
    /// Whether `self` equals `other`, when `other` is of the same type.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
