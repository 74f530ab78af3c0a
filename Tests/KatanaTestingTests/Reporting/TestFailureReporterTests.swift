import Testing
@testable import KatanaTesting

@Suite struct TestFailureReporterTests {
    @Test func currentFramework_insideASwiftTestingTest_isSwiftTesting() {
        #expect(TestFramework.current == .swiftTesting)
    }

    @Test func currentFramework_inADetachedTask_cannotSeeTheTest() async {
        // `Test.current` is task-local: a detached task does not inherit it.
        let framework = await Task.detached { TestFramework.current }.value
        #expect(framework == .xcTest)
    }

    @Test func automaticReporter_recordsAnIssueWithTheExactMessageAtTheGivenLocation() {
        let location = TestSourceLocation()
        let message = "State after Increment differs from the expectation:\n−   counter: 2,\n+   counter: 1,"
        withKnownIssue {
            TestFailureReporter.automatic.report(TestFailure(message, location: location))
        } matching: { issue in
            issue.comments.map(\.rawValue) == [message]
                && issue.sourceLocation == location.sourceLocation
                && issue.severity == .error
        }
    }

    @Test func fail_pointsAtItsCaller() {
        let line = #line + 2
        withKnownIssue {
            TestFailureReporter.automatic.fail("boom")
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["boom"]
                && issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == "KatanaTestingTests/TestFailureReporterTests.swift"
        }
    }

    @Test func fail_withAForwardedLocation_pointsAtThatLocation() {
        withKnownIssue {
            TestFailureReporter.automatic.fail("boom", fileID: "App/Feature.swift", filePath: "/src/App/Feature.swift", line: 42, column: 7)
        } matching: { issue in
            issue.sourceLocation == SourceLocation(fileID: "App/Feature.swift", filePath: "/src/App/Feature.swift", line: 42, column: 7)
        }
    }

    @Test func note_isRecordedAsAWarning_whichDoesNotFailTheTest() {
        withKnownIssue {
            TestFailureReporter.automatic.note("skipped 2 received items")
        } matching: { issue in
            issue.severity == .warning && !issue.isFailure && issue.comments.map(\.rawValue) == ["skipped 2 received items"]
        }
    }

    @Test func frameworkReporter_forSwiftTesting_recordsAnIssue() {
        withKnownIssue {
            TestFailureReporter.framework(.swiftTesting).fail("pinned")
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["pinned"]
        }
    }

    @Test func forCurrentTest_insideASwiftTestingTest_reportsToSwiftTesting() {
        let reporter = TestFailureReporter.forCurrentTest()
        withKnownIssue {
            reporter.fail("from the reporter made in the test")
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["from the reporter made in the test"]
        }
    }

    @Test func recorder_collectsFailuresAndNotesInOrder_insteadOfFailingTheTest() {
        let recorder = TestFailureRecorder()
        let line = #line + 1
        recorder.reporter.fail("first")
        recorder.reporter.note("second")
        #expect(recorder.messages == ["first", "second"])
        #expect(recorder.failures.map(\.severity) == [.failure, .note])
        #expect(recorder.failures.first?.location.line == UInt(line))
        #expect(recorder.takeAll().count == 2)
        #expect(recorder.failures.isEmpty)
    }

    @Test func recorder_collectsReportsFromManyThreads() async {
        let recorder = TestFailureRecorder()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { recorder.reporter.fail("\(index)") }
            }
        }
        #expect(Set(recorder.messages) == Set((0..<100).map(String.init)))
    }

    @Test func failureDescription_readsLikeACompilerDiagnostic() {
        let location = TestSourceLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 3, column: 9)
        #expect(TestFailure("wrong", location: location).description == "/src/App/A.swift:3:9: error: wrong")
        #expect(TestFailure("skipped", severity: .note, location: location).description == "/src/App/A.swift:3:9: note: skipped")
    }

    @Test func sourceLocation_withAFileIDWithoutModule_orLineZero_isCompletedForSwiftTesting() {
        let location = TestSourceLocation(fileID: "A.swift", filePath: "/src/A.swift", line: 0, column: 0)
        let converted = location.sourceLocation
        #expect(converted.fileID == "Unknown/A.swift")
        #expect(converted.line == 1)
        #expect(converted.column == 1)
        #expect(TestSourceLocation(fileID: "", filePath: "/x", line: 1, column: 1).sourceLocation.fileID == "Unknown/unknown.swift")
    }

    @Test func sourceLocations_areEqualWhenTheyPointAtTheSamePlace() {
        let first = TestSourceLocation(fileID: "M/A.swift", filePath: "/M/A.swift", line: 1, column: 2)
        let same = TestSourceLocation(fileID: "M/A.swift", filePath: "/M/A.swift", line: 1, column: 2)
        let other = TestSourceLocation(fileID: "M/A.swift", filePath: "/M/A.swift", line: 2, column: 2)
        #expect(first == same)
        #expect(first.hashValue == same.hashValue)
        #expect(first != other)
    }
}
