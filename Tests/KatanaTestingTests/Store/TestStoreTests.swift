import Katana
import KatanaTesting
import Testing

@Suite struct TestStoreTests {
    @Test func send_anUpdaterWithTheRightExpectation_passes() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(Add(amount: 2)) { $0.counter = 2 }
        await store.finish()
        #expect(recorder.messages == [])
    }

    @Test func send_anUpdaterWithTheWrongExpectation_failsWithADiff() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(Add(amount: 2)) { $0.counter = 3 }
        await store.finish()
        #expect(recorder.messages == [
            """
            State after sending KatanaTestingTests.Add differs from the expectation (− expected, + actual):
              Counting(
            −   counter: 3,
            +   counter: 2,
                log: []
              )
            """,
        ])
    }

    @Test func send_aSideEffectThatSleepsOnTheClock_thenAdvance_thenReceive() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(LoadAmount())
        await store.advance(by: .seconds(1))
        await store.receive(Add.self) { $0.counter = 41 }
        await store.finish()
        #expect(recorder.messages == [])
    }

    @Test func retryWithBackoff_oneAdvanceWakesEveryNestedSleep() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(RetryWithBackoff())
        await store.advance(by: .seconds(7))
        await store.receive(Note.self) { $0.log = ["attempt 1"] }
        await store.receive(Note.self) { $0.log = ["attempt 1", "attempt 2"] }
        await store.receive(Note.self) { $0.log = ["attempt 1", "attempt 2", "attempt 3"] }
        await store.finish()
        #expect(recorder.messages == [])
    }
}
