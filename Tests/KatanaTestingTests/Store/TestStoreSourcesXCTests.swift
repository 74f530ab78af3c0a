import Katana
import KatanaTesting
import XCTest

/// Under XCTest: items from side effects, observer rules (a slow one included) and a legacy
/// action's side effect are all received.
final class TestStoreSourcesXCTests: XCTestCase {
    @available(*, deprecated, message: "Sends a deprecated Katana 2.x action")
    func test_aLegacyActionsSideEffectDispatch_isReceived() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(LegacyAddThenNote(amount: 4)) { $0.counter = 4 }
            await store.receive(LegacyNote.self) { $0.log = ["saw 4"] }
        }
        XCTAssertEqual(recorder.failures, [])
    }

    @available(*, deprecated, message: "Sends a deprecated Katana 2.x action")
    func test_aLegacyActionsSideEffectDispatch_notReceived_isSeenByFinish() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(LegacyAddThenNote(amount: 4)) { $0.counter = 4 }
        }
        XCTAssertEqual(recorder.messages, [
            "The test ended with work left behind:\n• 1 received item not asserted with receive:\n    KatanaTestingTests.LegacyNote (#1)",
        ])
    }
}
