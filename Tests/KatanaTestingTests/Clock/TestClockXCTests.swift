import KatanaTesting
import KatanaTestSupport
import XCTest

/// The test clock driven from an XCTest case.
final class TestClockXCTests: XCTestCase {
    func test_advance_wakesNestedSleepsWithinTheSameAdvance_atTheirOwnDeadlines() async throws {
        try XCTSkipUnless(clockExecutorIsAvailable, "the test clock needs task executors")
        let recorder = TestFailureRecorder()
        let clock = TestClock(reporter: recorder.reporter)
        let attempts = LockedList<TestClock.Instant>()
        let task = startRetryWithBackoff(on: clock, notingAttemptsIn: attempts)
        await clock.advance(by: .seconds(7))
        XCTAssertEqual(attempts.all.map(\.offset), [.seconds(1), .seconds(3), .seconds(7)])
        try await finished(task, "the retry task to end")
        XCTAssertEqual(recorder.failures, [])
    }

    func test_sleep_cancelledWhileWaiting_throwsCancellationError() async throws {
        try XCTSkipUnless(clockExecutorIsAvailable, "the test clock needs task executors")
        let clock = TestClock()
        let task = startOnClock(clock) { try await clock.sleep(for: .seconds(10)) }
        await clock.advance(by: .zero)
        XCTAssertEqual(clock.pendingSleepCount, 1)
        task.cancel()
        do {
            try await finished(task, "the cancelled sleep to throw")
            XCTFail("the cancelled sleep returned")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    func test_advance_byANegativeDuration_failsTheTestThroughXCTest() async {
        let recorder = TestFailureRecorder()
        let clock = TestClock(reporter: recorder.reporter)
        await clock.advance(by: .seconds(-1))
        XCTAssertEqual(recorder.messages, [
            "TestClock.advance(by: -1.0 seconds): the duration is negative, and a test clock only moves forward; nothing was advanced",
        ])
    }
}
