import Katana
import KatanaTesting
import XCTest

/// Time through the test store under XCTest: nested sleeps, short advances, a negative advance,
/// a debounce.
final class TestStoreClockXCTests: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(clockExecutorIsAvailable, "the test clock needs task executors")
    }

    func test_advance_lessThanTheSleep_wakesNothing() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(LoadAmount())
            await store.advance(by: .milliseconds(999))
            XCTAssertEqual(store.handledItems.count, 1)
            XCTAssertEqual(store.state, Counting())
            await store.advance(by: .milliseconds(1))
            await store.receive(Add.self) { $0.counter = 41 }
        }
        XCTAssertEqual(recorder.failures, [])
    }

    func test_advance_byANegativeDuration_fails() async {
        let line: UInt = #line + 2
        let (store, recorder) = await finishedTestStore { store in
            await store.advance(by: .milliseconds(-500))
        }
        XCTAssertEqual(recorder.messages, [
            "advance(by: -0.5 seconds): the duration is negative, and a test clock only moves forward.",
        ])
        XCTAssertEqual(recorder.failures.map(\.location.line), [line])
        XCTAssertEqual(store.clock.now, TestClock.Instant(offset: .zero))
    }
}
