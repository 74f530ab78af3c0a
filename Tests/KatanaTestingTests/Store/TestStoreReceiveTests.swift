import Katana
import KatanaTesting
import KatanaTestSupport
import Testing

/// `receive`: by type and by predicate, its state check, waiting with a timeout, the wrong next
/// item, and skipping other items when not exhaustive.
@Suite struct TestStoreReceiveTests {
    private static func isAddOfTwo(_ item: any Dispatchable) -> Bool {
        (item as? Add)?.amount == 2
    }

    // MARK: By type

    @Test func receive_withTheWrongState_failsWithADiff_atTheCallersLine() async {
        let line: UInt = #line + 3
        let (_, recorder) = await finishedTestStore { store in
            await store.send(AddNow(amount: 2)) { $0.counter = 2 }
            await store.receive(Add.self) { $0.counter = 3 }
        }
        #expect(recorder.messages == [
            """
            State after receiving KatanaTestingTests.Add differs from the expectation (− expected, + actual):
              Counting(
            −   counter: 3,
            +   counter: 2,
                log: []
              )
            """,
        ])
        #expect(recorder.failures.map(\.location.line) == [line])
    }

    // MARK: By predicate

    @Test func receive_byPredicate_thatRejectsTheNextItem_failsNamingTheDescription() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 5)) { $0.counter = 5 }
        await store.receive("an Add of 2", where: Self.isAddOfTwo) { $0.counter = 5 }
        #expect(recorder.takeAll().map(\.message) == [
            "Expected to receive an Add of 2, but the next item the store handled on its own was KatanaTestingTests.Add (#1). Receive it first, or set exhaustivity to .off to skip it.",
        ])
        // Not taken: it is still the next one.
        await store.receive(Add.self) { $0.counter = 5 }
        await store.finish()
        #expect(recorder.messages == [])
    }

    // MARK: Waiting

    @Test func receive_waitsForAnItemThatArrivesLater() async throws {
        let (_, recorder) = try await finishedTestStore { store in
            let gate = Gate()
            await store.send(AwaitGate(gate: gate))
            // Opened from outside the store and the clock while receive waits.
            let opener = Task {
                try await gate.waitForWaiters(1)
                gate.open()
            }
            await store.receive(Add.self) { $0.counter = 1 }
            try await finished(opener, "the gate to open")
        }
        #expect(recorder.messages == [])
    }

    @Test func receive_withNothingToReceive_failsWhenItsTimeoutRunsOut() async {
        let line: UInt = #line + 3
        let (_, recorder) = await finishedTestStore { store in
            await store.send(Add(amount: 1)) { $0.counter = 1 }
            await store.receive(Note.self, timeout: .milliseconds(50))
        }
        #expect(recorder.failures.map { "\($0.location.line): \($0.message)" } == [
            "\(line): Expected to receive KatanaTestingTests.Note within 0.05 seconds, but the store handled nothing more on its own (nothing is running now).",
        ])
    }

    // MARK: The wrong next item

    @Test func receive_theWrongType_whenExhaustive_fails_andLeavesTheItem() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        let line: UInt = #line + 1
        await store.receive(Note.self) { $0.log = ["never"] }
        #expect(recorder.takeAll().map { "\($0.location.line): \($0.message)" } == [
            "\(line): Expected to receive KatanaTestingTests.Note, but the next item the store handled on its own was KatanaTestingTests.Add (#1). Receive it first, or set exhaustivity to .off to skip it.",
        ])
        await store.finish()
        #expect(recorder.messages == [
            leftBehind + oneUnassertedAdd,
        ])
    }

    @Test func receive_whenNotExhaustiveAndShowingSkipped_notesEachSkippedItem() async {
        let line: UInt = #line + 3
        let (_, recorder) = await finishedTestStore(exhaustivity: .off(showSkipped: true)) { store in
            await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
            await store.receive(Add.self) { $0.counter = 2 }
        }
        #expect(recorder.failures.map(\.severity) == [.note])
        #expect(recorder.failures.map(\.location.line) == [line])
        #expect(recorder.messages == [
            "Skipped the received KatanaTestingTests.Note (#1) while waiting to receive KatanaTestingTests.Add.",
        ])
    }

    // MARK: skipReceivedItems

    @Test func skipReceivedItems_skipsEveryUnassertedItem_andReturnsTheCount() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(NoteThenAdd(text: "a", amount: 2)) {
                $0.counter = 2
                $0.log = ["a"]
            }
            let skipped = await store.skipReceivedItems()
            #expect(skipped == 2)
            #expect(await store.skipReceivedItems() == 0)
            await store.send(Add(amount: 1)) {
                $0.counter = 3
                $0.log = ["a"]
            }
        }
        #expect(recorder.failures == [])
    }

    @Test func skipReceivedItems_whenShowingSkipped_notesEach() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off(showSkipped: true))
        await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
        let line: UInt = #line + 1
        let skipped = await store.skipReceivedItems()
        await store.finish()
        #expect(skipped == 2)
        #expect(recorder.failures.map(\.severity) == [.note, .note])
        #expect(recorder.failures.map(\.location.line) == [line, line])
        #expect(recorder.messages == [
            "Skipped the received KatanaTestingTests.Note (#1) with skipReceivedItems().",
            "Skipped the received KatanaTestingTests.Add (#2) with skipReceivedItems().",
        ])
    }

    // MARK: Waiting on signals

    @Test(.enabled(if: clockExecutorIsAvailable, "the side effect's tail runs on the clock's executor"))
    func receive_waitsForAnItemASideEffectDispatchesAfterARealPause_andPasses() async {
        let (store, recorder) = await finishedTestStore { store in
            let gate = Gate()
            // Settles at once: the side effect waits for the gate, which only the test opens.
            await store.send(AddAfterGateAndPause(gate: gate, pause: .milliseconds(100)))
            gate.open()
            // The Add comes 100 ms later; the recording's poke wakes the receive.
            await store.receive(Add.self) { $0.counter = 1 }
        }
        #expect(store.state.counter == 1)
        #expect(recorder.messages == [])
    }
}
