#if canImport(Testing)
import Testing
#endif

/// The test framework a failure is reported to.
public enum TestFramework: Sendable, Equatable, CustomStringConvertible {
    /// Swift Testing (`@Test`): failures become `Issue`s.
    case swiftTesting
    /// XCTest (`XCTestCase`): failures go through `XCTFail`.
    case xcTest
    /// Neither framework can be reached from this build; failures are written to standard error.
    case none

    /// The framework running the current code.
    ///
    /// Swift Testing is recognised by its current test (`Test.current`), which is a task-local
    /// value: it is seen in the test's own task and in tasks it creates (`Task {}`, `async let`,
    /// task groups), but not in detached tasks or on threads the test does not own. Everywhere
    /// else the answer is XCTest when it can be imported, because XCTest has no public way to ask
    /// whether one of its tests is running.
    public static var current: TestFramework {
        #if canImport(Testing)
        if Test.current != nil {
            return .swiftTesting
        }
        #endif
        #if canImport(XCTest)
        return .xcTest
        #else
        return .none
        #endif
    }

    /// The framework's name as users know it.
    public var description: String {
        switch self {
        case .swiftTesting: "Swift Testing"
        case .xcTest: "XCTest"
        case .none: "no test framework"
        }
    }
}
