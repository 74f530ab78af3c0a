import Katana
import KatanaTesting
import KatanaTestSupport
import Testing

/// `finish()`, `withTestStore` and releasing the store: each kind of work a test can leave
/// behind, reported with its exact text, and nothing when the test is clean.
@Suite struct TestStoreFinishTests {
    private static let header = "The test ended with work left behind:\n"

    // MARK: Clean

    @Test func finish_afterACleanTest_reportsNothing_andShutsTheStoreDown() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(Add(amount: 1)) { $0.counter = 1 }
        await store.finish()
        #expect(recorder.failures == [])
        #expect(store.store.isShuttingDown)
    }

    // MARK: Received items

    @Test func finish_withOneUnassertedReceivedItem_saysItemInTheSingular() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        let line: UInt = #line + 1
        await store.finish()
        #expect(recorder.failures.map { "\($0.location.line): \($0.message)" } == [
            "\(line): " + Self.header + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
        ])
    }

    @Test func finish_withTwoUnassertedReceivedItems_saysItemsInThePlural_inOrder() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(NoteThenAdd(text: "a", amount: 2)) {
            $0.counter = 2
            $0.log = ["a"]
        }
        await store.finish()
        #expect(recorder.messages == [
            Self.header + "• 2 received items not asserted with receive:\n    KatanaTestingTests.Note (#1)\n    KatanaTestingTests.Add (#2)",
        ])
    }

    @Test func finish_whenNotExhaustive_saysNothingAboutUnassertedItems() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off)
        await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
        await store.finish()
        #expect(recorder.failures == [])
    }

    @Test func finish_whenShowingSkipped_notesUnassertedItems_withoutFailing() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, exhaustivity: .off(showSkipped: true))
        await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
        await store.finish()
        #expect(recorder.failures.map(\.severity) == [.note, .note])
        #expect(recorder.messages == [
            "Skipped the received KatanaTestingTests.Note (#1): no receive asserted it.",
            "Skipped the received KatanaTestingTests.Add (#2): no receive asserted it.",
        ])
    }

    // MARK: Side effects still running

    @Test func finish_withAReceivedSideEffectAwaitingSomethingOutside_reportsItStillRunning() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let gate = Gate()
        await store.send(LaunchGateWait(gate: gate))
        await store.receive(AwaitGate.self)
        await store.finish()
        gate.open()
        #expect(recorder.messages == [
            Self.header + "• 1 side effect still running:\n    KatanaTestingTests.AwaitGate (#1)",
        ])
    }

    @Test func finish_withTwoSideEffectsStillRunning_listsBothInOrder() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let gate = Gate()
        await store.send(LaunchGateWait(gate: gate))
        await store.send(LaunchGateWait(gate: gate)) { _ in }
        // The first AwaitGate was received before the second send, which must complain.
        #expect(recorder.takeAll().map(\.message) == [
            "Before sending KatanaTestingTests.LaunchGateWait, receive must assert 1 received item: KatanaTestingTests.AwaitGate (#1)",
        ])
        await store.skipReceivedItems()
        await store.finish()
        gate.open()
        #expect(recorder.messages == [
            Self.header + "• 2 side effects still running:\n    KatanaTestingTests.AwaitGate (#1)\n    KatanaTestingTests.AwaitGate (#3)",
        ])
    }

    // MARK: Sleeps on the test clock

    @Test func finish_withASleepOnTheTestClock_reportsTheSleep() async throws {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let clock = store.clock
        // A sleeper that is not a side effect of the store, so it is the only leftover.
        let sleeper = startOnClock(clock) { try await clock.sleep(for: .seconds(3)) }
        try await clock.waitUntil("the sleeper's sleep") { clock.sleepers.count == 1 }
        await store.finish()
        sleeper.cancel()
        #expect(recorder.messages == [
            Self.header + "• 1 sleep still waiting on the test clock (now +0.0 seconds): until +3.0 seconds; advance the clock, or cancel the side effects",
        ])
    }

    @Test func finish_withASentSideEffectSleeping_reportsTheSideEffect_theSleepAndThePromise() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let line: UInt = #line + 1
        await store.send(LoadAmount())
        await store.send(LoadAmount(delay: .seconds(2)))
        await store.advance(by: .milliseconds(500))
        await store.finish()
        #expect(recorder.messages == [
            Self.header
                + "• 2 side effects still running:\n    KatanaTestingTests.LoadAmount (#0)\n    KatanaTestingTests.LoadAmount (#1)\n"
                + "• 2 sleeps still waiting on the test clock (now +0.5 seconds): until +1.0 seconds, +2.0 seconds; advance the clock, or cancel the side effects\n"
                + "• 2 promises of sent items not settled:\n"
                + "    KatanaTestingTests.LoadAmount, sent at \(#fileID):\(line)\n"
                + "    KatanaTestingTests.LoadAmount, sent at \(#fileID):\(line + 1)",
        ])
    }

    // MARK: Pending promises

    // A sent item's promise stays pending only while the item is being handled: a blocked one's
    // promise is settled at once (an updater's as done), so the pending promise comes with the
    // side effect that is still running.
    @Test func finish_withASentSideEffectAwaitingSomethingOutside_reportsItAndItsPromise_withWhereItWasSent() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let gate = Gate()
        let line: UInt = #line + 1
        let promise = await store.send(AwaitGate(gate: gate))
        #expect(promise.isPending)
        await store.finish()
        gate.open()
        #expect(recorder.messages == [
            Self.header
                + "• 1 side effect still running:\n    KatanaTestingTests.AwaitGate (#0)\n"
                + "• 1 promise of a sent item not settled:\n    KatanaTestingTests.AwaitGate, sent at \(#fileID):\(line)",
        ])
    }

    @Test func finish_afterABlockedUpdater_reportsNoPendingPromise() async throws {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [blocking(amount: 99)])
        let promise = await store.send(Add(amount: 99))
        #expect(recorder.takeAll().map(\.message) == [
            "KatanaTestingTests.Add was sent, but an interceptor returned without passing it on, so the store did not handle it.",
        ])
        #expect(!promise.isPending)
        await store.finish()
        #expect(recorder.failures == [])
    }

    // MARK: Listeners

    @Test func finish_afterAListenerThrew_reportsEachCall() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        store.addListener { _, new in
            if new.counter > 1 {
                throw Refused(reason: "counter \(new.counter)")
            }
        }
        await store.send(Add(amount: 1)) { $0.counter = 1 }
        await store.send(Add(amount: 1)) { $0.counter = 2 }
        await store.send(Add(amount: 1)) { $0.counter = 3 }
        await store.finish()
        #expect(recorder.messages == [
            Self.header + "• 2 listener calls threw:\n    refused: counter 2\n    refused: counter 3",
        ])
    }

    @Test func finish_afterOneListenerCallThrew_saysCallInTheSingular() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        store.addListener { _, _ in throw Refused(reason: "always") }
        await store.send(Add(amount: 1)) { $0.counter = 1 }
        await store.finish()
        #expect(recorder.messages == [
            Self.header + "• 1 listener call threw:\n    refused: always",
        ])
    }

    @Test func addListener_theListenerIsCalled_andUnsubscribingStopsIt() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let seen = LockedList<Int>()
        let unsubscribe = store.addListener { _, new in seen.append(new.counter) }
        await store.send(Add(amount: 1)) { $0.counter = 1 }
        unsubscribe()
        await store.send(Add(amount: 1)) { $0.counter = 2 }
        await store.finish()
        #expect(seen.all == [1])
        #expect(recorder.failures == [])
    }

    // MARK: Finishing twice

    @Test func finish_calledTwice_reportsOnlyTheFirstTime() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.finish()
        #expect(recorder.takeAll().count == 1)
        await store.finish()
        #expect(recorder.failures == [])
    }

    // MARK: withTestStore

    @Test func withTestStore_finishesAfterTheBody_atItsCallersLine_andReturnsTheBodysResult() async {
        let recorder = TestFailureRecorder()
        let line: UInt = #line + 1
        let result = await withTestStore(makeTestStore(recorder: recorder)) { store in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            return store.state.counter
        }
        #expect(result == 1)
        #expect(recorder.failures.map { "\($0.location.line): \($0.message)" } == [
            "\(line): " + Self.header + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
        ])
    }

    @Test func withTestStore_finishesAlsoWhenTheBodyThrows_andRethrows() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await #expect(throws: Refused.self) {
            try await withTestStore(store) { store in
                await store.send(AddNow(amount: 1)) { $0.counter = 1 }
                throw Refused(reason: "in the body")
            }
        }
        #expect(recorder.messages == [
            Self.header + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
        ])
        #expect(store.store.isShuttingDown)
    }

    @Test func withTestStore_afterACleanBody_reportsNothing() async {
        let recorder = TestFailureRecorder()
        await withTestStore(makeTestStore(recorder: recorder)) { store in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.receive(Add.self) { $0.counter = 1 }
        }
        #expect(recorder.failures == [])
    }

    // MARK: Released without finish

    /// Makes a test store, runs `body` with it, and lets it go without `finish()`.
    private func releasedStore(
        recorder: TestFailureRecorder,
        line: UInt = #line,
        _ body: (CountingTestStore) async -> Void
    ) async {
        let clock = TestClock(reporter: recorder.reporter)
        let store = CountingTestStore(initialState: Counting(), clock: clock, reporter: recorder.reporter, line: line) {
            $0.clock = clock
        }
        await body(store)
    }

    @Test func release_withoutFinish_andWorkLeft_reportsItAtTheStoresCreation() async {
        let recorder = TestFailureRecorder()
        let line: UInt = #line + 1
        await releasedStore(recorder: recorder) { store in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        }
        #expect(recorder.failures.map { "\($0.location.line): \($0.message)" } == [
            "\(line): The test store was released without finish(), and the test left work behind:\n• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
        ])
    }

    @Test func release_withoutFinish_afterACleanTest_reportsNothing() async {
        let recorder = TestFailureRecorder()
        await releasedStore(recorder: recorder) { store in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.receive(Add.self) { $0.counter = 1 }
        }
        #expect(recorder.failures == [])
    }

    @Test func release_afterFinish_reportsNothingMore() async {
        let recorder = TestFailureRecorder()
        await releasedStore(recorder: recorder) { store in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.finish()
        }
        #expect(recorder.messages == [
            Self.header + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)",
        ])
    }
}
