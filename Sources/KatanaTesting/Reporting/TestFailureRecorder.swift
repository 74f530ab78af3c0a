/// Collects reported problems instead of failing the test, so a test of a testing helper can
/// check that the helper reported exactly the expected failure, and fail when it did not.
///
/// ```swift
/// let recorder = TestFailureRecorder()
/// helper(reporter: recorder.reporter).check(…)
/// #expect(recorder.messages == ["State after Increment differs …"])
/// ```
public final class TestFailureRecorder: Sendable {
    // Guarded by its own lock: reports may come from any thread.
    private let recorded = LockedValue<[TestFailure]>([])

    /// An empty recorder.
    public init() {}

    /// A reporter that appends every problem to this recorder.
    public var reporter: TestFailureReporter {
        TestFailureReporter { [recorded] failure in
            recorded.withLock { $0.append(failure) }
        }
    }

    /// Every problem reported so far, oldest first.
    public var failures: [TestFailure] {
        recorded.withLock { $0 }
    }

    /// The messages of every problem reported so far, oldest first.
    public var messages: [String] {
        failures.map(\.message)
    }

    /// Returns every problem reported so far and forgets them, so a test can check one step at a
    /// time.
    public func takeAll() -> [TestFailure] {
        recorded.withLock { failures in
            defer { failures = [] }
            return failures
        }
    }
}
