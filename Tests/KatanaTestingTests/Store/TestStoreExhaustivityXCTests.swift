import Katana
import KatanaTesting
import XCTest

/// Exhaustive and non-exhaustive checking under XCTest.
final class TestStoreExhaustivityXCTests: XCTestCase {
    func test_exhaustive_comparesTheWholeState() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddAndNote(amount: 1)) { $0.counter = 1 }
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            """
            State after sending KatanaTestingTests.AddAndNote differs from the expectation (− expected, + actual):
              Counting(
                counter: 1,
            −   log: []
            +   log: [
            +     "added 1"
            +   ]
              )
            """,
        ])
    }

    func test_nonExhaustive_comparesOnlyTheFieldsTheClosureSets() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off)
        await store.send(AddAndNote(amount: 1)) { $0.counter = 1 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_nonExhaustive_aWronglySetField_stillFails() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off)
        await store.send(AddAndNote(amount: 1)) { $0.counter = 5 }
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            """
            State after sending KatanaTestingTests.AddAndNote differs from the expectation (− expected, + actual):
              Counting(
            −   counter: 5,
            +   counter: 1,
                log: [
                  "added 1"
                ]
              )
            """,
        ])
    }

    func test_nonExhaustive_unassertedItems_areSkippedBySendAndFinish() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.send(AddNow(amount: 1)) { $0.counter = 2 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_nonExhaustiveShowingSkipped_notesWhatSendAndFinishSkip() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off(showSkipped: true))
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.send(AddNow(amount: 1)) { $0.counter = 2 }
        await store.finish()
        XCTAssertEqual(recorder.failures.map(\.severity), [.note, .note])
        XCTAssertEqual(recorder.messages, [
            "Skipped the received KatanaTestingTests.Add (#1) before sending KatanaTestingTests.AddNow.",
            "Skipped the received KatanaTestingTests.Add (#3): no receive asserted it.",
        ])
    }
}
