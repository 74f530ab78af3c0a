import Katana
import KatanaTesting
import KatanaTestSupport
import XCTest

/// `finish()`, `withTestStore` and releasing the store under XCTest: each leftover's exact text.
final class TestStoreFinishXCTests: XCTestCase {
    private static let header = "The test ended with work left behind:\n"

    func test_finish_afterACleanTest_reportsNothing() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.receive(Add.self) { $0.counter = 1 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_finish_withOneUnassertedReceivedItem_singular() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        let line: UInt = #line + 1
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            Self.header + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
        ])
        XCTAssertEqual(recorder.failures.map(\.location.line), [line])
    }

    func test_finish_withTwoUnassertedReceivedItems_plural() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(NoteThenAdd(text: "a", amount: 2)) {
            $0.counter = 2
            $0.log = ["a"]
        }
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            Self.header + "• 2 received items not asserted with receive:\n    KatanaTestingTests.Note (#1)\n    KatanaTestingTests.Add (#2)",
        ])
    }

    func test_finish_withAReceivedSideEffectStillRunning_reportsIt() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let gate = Gate()
        await store.send(LaunchGateWait(gate: gate))
        await store.receive(AwaitGate.self)
        await store.finish()
        gate.open()
        XCTAssertEqual(recorder.messages, [
            Self.header + "• 1 side effect still running:\n    KatanaTestingTests.AwaitGate (#1)",
        ])
    }

    func test_finish_withASleepOnTheTestClock_reportsIt() async throws {
        try XCTSkipUnless(clockExecutorIsAvailable, "the test clock needs task executors")
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let clock = store.clock
        let sleeper = startOnClock(clock) { try await clock.sleep(for: .seconds(3)) }
        try await clock.waitUntil("the sleeper's sleep") { clock.sleepers.count == 1 }
        await store.finish()
        sleeper.cancel()
        XCTAssertEqual(recorder.messages, [
            Self.header + "• 1 sleep still waiting on the test clock (now +0.0 seconds): until +3.0 seconds; advance the clock, or cancel the side effects",
        ])
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
            Self.header
                + "• 1 side effect still running:\n    KatanaTestingTests.AwaitGate (#0)\n"
                + "• 1 promise of a sent item not settled:\n    KatanaTestingTests.AwaitGate, sent at \(#fileID):\(line)",
        ])
    }

    func test_finish_afterAListenerThrew_reportsTheError() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        store.addListener { _, _ in throw Refused(reason: "listener") }
        await store.send(Add(amount: 1)) { $0.counter = 1 }
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            Self.header + "• 1 listener call threw:\n    refused: listener",
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
            Self.header + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
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
            "The test store was released without finish(), and the test left work behind:\n• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
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
