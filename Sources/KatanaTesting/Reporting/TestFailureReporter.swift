import Foundation
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Delivers the problems a testing helper finds to whoever should see them: the test framework
/// running the test, or (in the helpers' own tests) a ``TestFailureRecorder``.
///
/// Helpers take a reporter instead of calling `XCTFail` or `Issue.record` themselves, so the same
/// helper works under both frameworks and its failures can be captured and checked word for word.
public struct TestFailureReporter: Sendable {
    private let deliver: @Sendable (TestFailure) -> Void

    /// A reporter that hands every problem to `deliver`.
    public init(_ deliver: @escaping @Sendable (TestFailure) -> Void) {
        self.deliver = deliver
    }

    /// Reports `failure`.
    public func report(_ failure: TestFailure) {
        deliver(failure)
    }

    /// Reports a failure with `message` at the caller's location (or the one forwarded to it).
    public func fail(
        _ message: String,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        deliver(TestFailure(message, severity: .failure, location: location))
    }

    /// Reports a note (a problem that does not fail the test) with `message` at the caller's
    /// location (or the one forwarded to it).
    public func note(
        _ message: String,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        deliver(TestFailure(message, severity: .note, location: location))
    }

    // MARK: - Reporters

    /// Reports to the framework running the code at the moment of each report
    /// (``TestFramework/current``): the default for helpers.
    public static let automatic = TestFailureReporter { failure in
        deliver(failure, to: .current)
    }

    /// Reports to the framework running the code now, and keeps reporting there from any task or
    /// thread. A helper that may report from outside the test's task (a store thread, a detached
    /// task, a deinitialiser) makes this when it is created, inside the test.
    public static func forCurrentTest() -> TestFailureReporter {
        framework(TestFramework.current)
    }

    /// Reports to `framework`: `Issue.record` for Swift Testing, `XCTFail` (and printed notes)
    /// for XCTest, standard error for ``TestFramework/none``.
    public static func framework(_ framework: TestFramework) -> TestFailureReporter {
        TestFailureReporter { failure in
            deliver(failure, to: framework)
        }
    }

    /// Writes every problem to standard error as `path:line:column: error: message`, for code
    /// that runs outside any test.
    public static let standardError = TestFailureReporter { failure in
        writeToStandardError(failure)
    }

    // MARK: - Delivery

    private static func deliver(_ failure: TestFailure, to framework: TestFramework) {
        switch framework {
        case .swiftTesting:
            #if canImport(Testing)
            let severity: Issue.Severity = failure.severity == .failure ? .error : .warning
            Issue.record(Comment(rawValue: failure.message), severity: severity, sourceLocation: failure.location.sourceLocation)
            #else
            writeToStandardError(failure)
            #endif
        case .xcTest:
            #if canImport(XCTest)
            switch failure.severity {
            case .failure:
                XCTFail(failure.message, file: failure.location.filePath, line: failure.location.line)
            case .note:
                // XCTest has no severity below a failure; a note is printed where its log goes.
                print(failure.description)
            }
            #else
            writeToStandardError(failure)
            #endif
        case .none:
            writeToStandardError(failure)
        }
    }

    private static func writeToStandardError(_ failure: TestFailure) {
        FileHandle.standardError.write(Data((failure.description + "\n").utf8))
    }
}
