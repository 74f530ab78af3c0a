import Katana
import KatanaTesting
import XCTest

/// Under XCTest: items from side effects, observer rules (a slow one included) and a legacy
/// action's side effect are all received.
final class TestStoreSourcesXCTests: XCTestCase {
    func test_anAsyncSideEffectsDispatch_isReceived() async throws {
        try XCTSkipUnless(clockExecutorIsAvailable, "the test clock needs task executors")
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(LoadAmount())
        await store.advance(by: .seconds(1))
        await store.receive(Add.self) { $0.counter = 41 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_aSyncSideEffectsDispatch_isReceived() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 3)) { $0.counter = 3 }
        await store.receive(Add.self) { $0.counter = 3 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_anObserverRulesDispatch_isReceived() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [CountingRules.notingCounterChanges()])
        await store.send(Add(amount: 2)) { $0.counter = 2 }
        await store.receive(Note.self) { $0.log = ["0->2"] }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_aSlowObserverRulesDispatch_isReceived() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [CountingRules.slowlyNotingCounterChanges()])
        await store.send(Add(amount: 2)) { $0.counter = 2 }
        await store.receive(Note.self) { $0.log = ["0->2"] }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_aSlowObserverRulesDispatch_notReceived_isSeenByFinish() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [CountingRules.slowlyNotingCounterChanges()])
        await store.send(Add(amount: 2)) { $0.counter = 2 }
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            "The test ended with work left behind:\n• 1 received item not asserted with receive:\n    KatanaTestingTests.Note (#1)",
        ])
    }

    @available(*, deprecated, message: "Sends a deprecated Katana 2.x action")
    func test_aLegacyActionsSideEffectDispatch_isReceived() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(LegacyAddThenNote(amount: 4)) { $0.counter = 4 }
        await store.receive(LegacyNote.self) { $0.log = ["saw 4"] }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    @available(*, deprecated, message: "Sends a deprecated Katana 2.x action")
    func test_aLegacyActionsSideEffectDispatch_notReceived_isSeenByFinish() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(LegacyAddThenNote(amount: 4)) { $0.counter = 4 }
        await store.finish()
        XCTAssertEqual(recorder.messages, [
            "The test ended with work left behind:\n• 1 received item not asserted with receive:\n    KatanaTestingTests.LegacyNote (#1)",
        ])
    }
}
