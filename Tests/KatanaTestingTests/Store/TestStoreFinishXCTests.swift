import Katana
import KatanaTesting
import KatanaTestSupport
import XCTest

/// `finish()`, `withTestStore` and releasing the store under XCTest: each leftover's exact text.
final class TestStoreFinishXCTests: XCTestCase {
    func test_finish_withOneUnassertedReceivedItem_singular() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        let line: UInt = #line + 1
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            leftBehind + oneUnassertedAdd,
        ])
        XCTAssertEqual(recorder.failures.map(\.location.line), [line])
    }


    func test_finish_withASentSideEffectStillRunning_reportsItsPendingPromise_withWhereItWasSent() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let gate = Gate()
        let line = #line + 1
        await store.send(AwaitGate(gate: gate))
        await store.finish()
        gate.open()
        XCTAssertEqual(recorder.messages, [
            leftBehind
                + "• 1 side effect still running:\n    KatanaTestingTests.AwaitGate (#0)\n"
                + "• 1 promise of a sent item not settled:\n    KatanaTestingTests.AwaitGate, sent at \(#fileID):\(line)",
        ])
    }

    func test_finish_calledTwice_reportsOnce() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.finish()
        await store.finish()
        XCTAssertEqual(recorder.failures.count, 1)
    }

    func test_withTestStore_finishesWhenTheBodyThrows() async {
        let recorder = TestFailureRecorder()
        do {
            try await withTestStore(makeTestStore(recorder: recorder)) { store in
                await store.send(AddNow(amount: 1)) { $0.counter = 1 }
                throw Refused(reason: "in the body")
            }
            XCTFail("withTestStore did not rethrow the body's error")
        } catch {
            XCTAssertEqual("\(error)", "refused: in the body")
        }
        XCTAssertEqual(recorder.messages, [
            leftBehind + oneUnassertedAdd,
        ])
    }

    /// Makes a test store at `line`, runs `body` with it, and lets it go without `finish()`.
    private func releasedStore(recorder: TestFailureRecorder, line: UInt = #line, _ body: (CountingTestStore) async -> Void) async {
        let clock = TestClock(reporter: recorder.reporter)
        let store = CountingTestStore(initialState: Counting(), clock: clock, reporter: recorder.reporter, line: line) {
            $0.clock = clock
        }
        await body(store)
    }

    func test_release_withoutFinish_andWorkLeft_reportsIt() async {
        let recorder = TestFailureRecorder()
        let line: UInt = #line + 1
        await releasedStore(recorder: recorder) { store in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        }
        XCTAssertEqual(recorder.messages, [
            "The test store was released without finish(), and the test left work behind:\n" + oneUnassertedAdd,
        ])
        XCTAssertEqual(recorder.failures.map(\.location.line), [line])
    }

    func test_release_withoutFinish_afterACleanTest_reportsNothing() async {
        let recorder = TestFailureRecorder()
        await releasedStore(recorder: recorder) { store in
            await store.send(Add(amount: 1)) { $0.counter = 1 }
        }
        XCTAssertEqual(recorder.failures, [])
    }
}
