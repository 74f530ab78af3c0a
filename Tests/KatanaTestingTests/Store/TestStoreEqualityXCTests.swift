import Katana
import KatanaTesting
import XCTest

/// The same checks as TestStoreEqualityTests, under XCTest.
final class TestStoreEqualityXCTests: XCTestCase {
    func test_send_stateEqualByItsEquals_passesEvenWhenTheDrawingsDiffer() async {
        let recorder = TestFailureRecorder()
        let store = makeMeasuredStore(recorder)
        await store.send(FillCache())
        await store.finish()
        XCTAssertEqual(recorder.messages, [])
        XCTAssertEqual(store.state.cache, ["warm"])
    }

    func test_send_stateNotEqualByItsEqualsButDrawnTheSame_failsWithTheDrawing() async {
        let recorder = TestFailureRecorder()
        let store = makeMeasuredStore(recorder)
        await store.send(Measure(value: .nan)) { $0.measured = .nan }
        await store.finish()
        XCTAssertEqual(recorder.messages, [notEqualButDrawnTheSame])
    }
}
