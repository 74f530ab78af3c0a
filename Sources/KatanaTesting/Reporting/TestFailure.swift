/// One problem a testing helper found: what it is, how serious, and where it points in the test.
public struct TestFailure: Sendable, Equatable, CustomStringConvertible {
    /// How serious a reported problem is.
    public enum Severity: Sendable, Equatable, CustomStringConvertible {
        /// The test fails.
        case failure
        /// Information for the reader (for example what a non-exhaustive check skipped); the test
        /// does not fail because of it.
        case note

        /// `error` or `note`, as diagnostics are labelled.
        public var description: String {
            switch self {
            case .failure: "error"
            case .note: "note"
            }
        }
    }

    /// The text shown to the user; it may span several lines (a state diff does).
    public var message: String
    /// Whether the test fails because of this problem.
    public var severity: Severity
    /// Where in the test the problem points.
    public var location: TestSourceLocation

    /// A problem with `message` at `location`, a failure unless `severity` says otherwise.
    public init(_ message: String, severity: Severity = .failure, location: TestSourceLocation) {
        self.message = message
        self.severity = severity
        self.location = location
    }

    /// `path:line:column: error: message`, the form compilers print.
    public var description: String {
        "\(location): \(severity): \(message)"
    }
}
