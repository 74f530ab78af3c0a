import XCTest
@testable import KatanaTesting

/// The reporter under XCTest. Linux's XCTest has no `XCTExpectFailure`, so this case catches
/// failures itself: while `catching` is set, `recordFailure` keeps them instead of failing the
/// test, and each test then checks that exactly the expected failure came.
final class TestFailureReporterXCTests: XCTestCase {
    private struct Caught: Equatable {
        var description: String
        var filePath: String
        var line: Int
    }

    private var catching = false
    private var caught: [Caught] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard catching else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            return
        }
        caught.append(Caught(description: description, filePath: filePath, line: lineNumber))
    }

    /// Runs `body` catching the failures it reports, and returns them.
    private func failures(in body: () -> Void) -> [Caught] {
        catching = true
        body()
        catching = false
        defer { caught = [] }
        return caught
    }

    func test_currentFramework_insideAnXCTestCase_isXCTest() {
        XCTAssertEqual(TestFramework.current, .xcTest)
    }

    func test_automaticReporter_failsThroughXCTFail_withTheMessageAtTheCallersFileAndLine() {
        var line = 0
        let caught = failures {
            line = #line + 1
            TestFailureReporter.automatic.fail("State differs:\n−   counter: 2,\n+   counter: 1,")
        }
        XCTAssertEqual(caught, [
            Caught(description: "failed - State differs:\n−   counter: 2,\n+   counter: 1,", filePath: #filePath, line: line),
        ])
    }

    func test_automaticReporter_withAForwardedLocation_failsThere() {
        let caught = failures {
            TestFailureReporter.automatic.fail("boom", fileID: "App/Feature.swift", filePath: "/src/App/Feature.swift", line: 42, column: 7)
        }
        XCTAssertEqual(caught, [Caught(description: "failed - boom", filePath: "/src/App/Feature.swift", line: 42)])
    }

    func test_note_doesNotFailTheTest() {
        let caught = failures {
            TestFailureReporter.automatic.note("skipped 2 received items")
        }
        XCTAssertEqual(caught, [])
    }

    func test_frameworkReporter_forXCTest_failsThroughXCTFail() {
        let caught = failures {
            TestFailureReporter.framework(.xcTest).fail("pinned")
        }
        XCTAssertEqual(caught.map(\.description), ["failed - pinned"])
    }

    func test_forCurrentTest_keepsReportingToXCTestFromAnotherThread() {
        let reporter = TestFailureReporter.forCurrentTest()
        let caught = failures {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                reporter.fail("from another thread")
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        }
        XCTAssertEqual(caught.map(\.description), ["failed - from another thread"])
    }

    func test_recorder_collectsFailuresInsteadOfFailingTheTest() {
        let recorder = TestFailureRecorder()
        let caught = failures {
            recorder.reporter.fail("kept")
        }
        XCTAssertEqual(caught, [])
        XCTAssertEqual(recorder.messages, ["kept"])
    }
}
