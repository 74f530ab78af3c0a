import Katana
import KatanaTesting
import KatanaTestSupport
import XCTest

/// `send` under XCTest: passing and failing cases with their exact messages, and one case with
/// the default reporter, whose failure XCTest records at the caller's file and line. Linux's
/// XCTest has no `XCTExpectFailure`, so that case catches the failure in `recordFailure`.
final class TestStoreSendXCTests: XCTestCase {
    private struct Caught: Equatable {
        var description: String
        var filePath: String
        var line: Int
    }

    // Failures may be recorded from any thread: both are guarded by a lock.
    private let catching = LockedValue(false)
    private let caught = LockedValue<[Caught]>([])

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard catching.withLock({ $0 }) else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            return
        }
        caught.withLock { $0.append(Caught(description: description, filePath: filePath, line: lineNumber)) }
    }

    func test_send_withTheDefaultReporter_failsThroughXCTest_atTheSendsFileAndLine() async {
        let store = TestStore<Counting, CountingDependencies>(initialState: Counting())
        catching.withLock { $0 = true }
        let line = #line + 1
        await store.send(Add(amount: 2)) { $0.counter = 3 }
        catching.withLock { $0 = false }
        await store.finish()
        XCTAssertEqual(caught.withLock { $0 }, [
            Caught(description: "failed - " + addOfTwoExpectedThreeDiff, filePath: #filePath, line: line),
        ])
    }

    func test_send_withTheDefaultReporter_andTheRightExpectation_recordsNoFailure() async {
        let store = TestStore<Counting, CountingDependencies>(initialState: Counting())
        catching.withLock { $0 = true }
        await store.send(Add(amount: 2)) { $0.counter = 2 }
        await store.finish()
        catching.withLock { $0 = false }
        XCTAssertEqual(caught.withLock { $0 }, [])
    }

    func test_send_anUpdaterWithTheWrongExpectation_failsWithTheDiff_atTheCallersLine() async {
        let line: UInt = #line + 2
        let (_, recorder) = await finishedTestStore { store in
            await store.send(Add(amount: 2)) { $0.counter = 3 }
        }
        XCTAssertEqual(recorder.messages, [addOfTwoExpectedThreeDiff])
        XCTAssertEqual(recorder.failures.map(\.location.line), [line])
        XCTAssertEqual(recorder.failures.map(\.location.filePath.description), [#filePath])
    }

    func test_send_anAsyncSideEffect_checksTheStateWhenItSuspends() async throws {
        try XCTSkipUnless(clockExecutorIsAvailable, "the test clock needs task executors")
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let promise = await store.send(LoadAmount())
        XCTAssertTrue(promise.isPending)
        await store.advance(by: .seconds(1))
        await store.receive(Add.self) { $0.counter = 41 }
        await store.finish()
        XCTAssertFalse(promise.isPending)
        XCTAssertEqual(recorder.failures, [])
    }

    func test_send_withAnUnassertedReceivedItem_failsBeforeSending() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.send(Note(text: "n")) {
            $0.counter = 1
            $0.log = ["n"]
        }
        XCTAssertEqual(recorder.takeAll().map(\.message), [
            "Before sending KatanaTestingTests.Note, receive must assert 1 received item: KatanaTestingTests.Add (#1)",
        ])
        await store.receive(Add.self) { $0.counter = 1 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_send_returnsThePromise_withTheSideEffectsValue() async throws {
        let (_, recorder) = try await finishedTestStore { store in
            await store.send(Add(amount: 7)) { $0.counter = 7 }
            let value = try await store.send(ReadCounter()).value
            XCTAssertEqual(value as? Int, 7)
        }
        XCTAssertEqual(recorder.failures, [])
    }
}
