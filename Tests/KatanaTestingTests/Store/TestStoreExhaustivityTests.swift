import Katana
import KatanaTesting
import Testing

/// Exhaustive and non-exhaustive checking: which fields a state assertion compares, and what
/// happens to received items the test does not assert.
@Suite struct TestStoreExhaustivityTests {
    // MARK: Received items before a send

    @Test func nonExhaustiveShowingSkipped_sendNotesUnassertedReceivedItems() async {
        let line: UInt = #line + 3
        let (_, recorder) = await finishedTestStore(exhaustivity: .off(showSkipped: true)) { store in
            await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
            await store.send(Note(text: "n")) { $0.log = ["a", "n"] }
        }
        #expect(recorder.failures.map(\.severity) == [.note, .note])
        #expect(recorder.failures.map(\.location.line) == [line, line])
        #expect(recorder.messages == [
            "Skipped the received KatanaTestingTests.Note (#1) before sending KatanaTestingTests.Note.",
            "Skipped the received KatanaTestingTests.Add (#2) before sending KatanaTestingTests.Note.",
        ])
    }

    // MARK: Changing it during a test

    @Test func exhaustivity_canBeTurnedOffDuringATest() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.receive(Add.self) { $0.counter = 1 }
            store.exhaustivity = .off
            #expect(store.exhaustivity == .off(showSkipped: false))
            await store.send(AddNow(amount: 1)) { $0.counter = 2 }
            await store.send(AddAndNote(amount: 1)) { $0.counter = 3 }
        }
        #expect(recorder.failures == [])
    }

    @Test func exhaustivity_turnedBackOn_checksAgain() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off)
        await store.send(AddNow(amount: 1))
        store.exhaustivity = .on
        await store.send(Add(amount: 1)) { $0.counter = 2 }
        #expect(recorder.takeAll().map(\.message) == [
            "Before sending KatanaTestingTests.Add, receive must assert 1 received item: KatanaTestingTests.Add (#1)",
        ])
        await store.receive(Add.self) { $0.counter = 1 }
        await store.finish()
        #expect(recorder.failures == [])
    }
}
