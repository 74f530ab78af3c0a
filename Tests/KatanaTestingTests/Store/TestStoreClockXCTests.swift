import Katana
import KatanaTesting
import XCTest

/// Time through the test store under XCTest: nested sleeps, short advances, a negative advance,
/// a debounce.
final class TestStoreClockXCTests: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(clockExecutorIsAvailable, "the test clock needs task executors")
    }

    func test_advance_wakesNestedSleeps() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(RetryWithBackoff())
        await store.advance(by: .seconds(3))
        await store.receive(Note.self) { $0.log = ["attempt 1"] }
        await store.receive(Note.self) { $0.log = ["attempt 1", "attempt 2"] }
        await store.advance(by: .seconds(4))
        await store.receive(Note.self) { $0.log = ["attempt 1", "attempt 2", "attempt 3"] }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_advance_lessThanTheSleep_wakesNothing() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(LoadAmount())
        await store.advance(by: .milliseconds(999))
        XCTAssertEqual(store.handledItems.count, 1)
        XCTAssertEqual(store.state, Counting())
        await store.advance(by: .milliseconds(1))
        await store.receive(Add.self) { $0.counter = 41 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_advance_byANegativeDuration_fails() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let line: UInt = #line + 1
        await store.advance(by: .milliseconds(-500))
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            "advance(by: -0.5 seconds): the duration is negative, and a test clock only moves forward.",
        ])
        XCTAssertEqual(recorder.failures.map(\.location.line), [line])
        XCTAssertEqual(store.clock.now, TestClock.Instant(offset: .zero))
    }

    func test_aDebouncedSearch_onlyTheLatestDispatches() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(DebouncedSearch(query: "a"))
        await store.advance(by: .milliseconds(200))
        await store.send(DebouncedSearch(query: "ab"))
        await store.advance(by: .milliseconds(200))
        await store.send(DebouncedSearch(query: "abc"))
        await store.advance(by: .milliseconds(300))
        await store.receive(Note.self) { $0.log = ["search abc"] }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
        XCTAssertEqual(store.state.log, ["search abc"])
    }
}
