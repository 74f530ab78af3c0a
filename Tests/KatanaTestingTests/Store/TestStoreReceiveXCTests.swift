import Katana
import KatanaTesting
import XCTest

/// `receive` and `skipReceivedItems` under XCTest, with the exact messages of each failure.
final class TestStoreReceiveXCTests: XCTestCase {
    func test_receive_withNothingToReceive_failsWhenTheTimeoutRunsOut() async {
        let line: UInt = #line + 2
        let (_, recorder) = await finishedTestStore { store in
            await store.receive(Note.self, timeout: .milliseconds(50))
        }
        XCTAssertEqual(recorder.messages, [
            "Expected to receive KatanaTestingTests.Note within 0.05 seconds, but the store handled nothing more on its own (nothing is running now).",
        ])
        XCTAssertEqual(recorder.failures.map(\.location.line), [line])
    }

    func test_receive_theWrongType_whenExhaustive_fails() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.receive(Note.self)
        XCTAssertEqual(recorder.takeAll().map(\.message), [
            "Expected to receive KatanaTestingTests.Note, but the next item the store handled on its own was KatanaTestingTests.Add (#1). Receive it first, or set exhaustivity to .off to skip it.",
        ])
        await store.receive(Add.self) { $0.counter = 1 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_skipReceivedItems_returnsTheCount_andNotesWhenShowingSkipped() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off(showSkipped: true))
        await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
        let skipped = await store.skipReceivedItems()
        await store.finish()
        XCTAssertEqual(skipped, 2)
        XCTAssertEqual(recorder.failures.map(\.severity), [.note, .note])
        XCTAssertEqual(recorder.messages, [
            "Skipped the received KatanaTestingTests.Note (#1) with skipReceivedItems().",
            "Skipped the received KatanaTestingTests.Add (#2) with skipReceivedItems().",
        ])
    }

    func test_skipReceivedItems_whenExhaustive_letsFinishPass() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(NoteThenAdd(text: "a", amount: 2)) {
            $0.counter = 2
            $0.log = ["a"]
        }
        let skipped = await store.skipReceivedItems()
        await store.finish()
        XCTAssertEqual(skipped, 2)
        XCTAssertEqual(recorder.failures, [])
    }
}
