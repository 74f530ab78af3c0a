import Katana
import KatanaTesting
import KatanaTestSupport
import Testing

/// `finish()`, `withTestStore` and releasing the store: each kind of work a test can leave
/// behind, reported with its exact text, and nothing when the test is clean.
@Suite struct TestStoreFinishTests {
    // MARK: Clean

    @Test func finish_afterACleanTest_reportsNothing_andShutsTheStoreDown() async {
        let (store, recorder) = await finishedTestStore { store in
            await store.send(Add(amount: 1)) { $0.counter = 1 }
        }
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
            "\(line): " + leftBehind + oneUnassertedAdd,
        ])
    }

    // MARK: Side effects still running

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
            leftBehind + "• 2 side effects still running:\n    KatanaTestingTests.AwaitGate (#1)\n    KatanaTestingTests.AwaitGate (#3)",
        ])
    }

    // MARK: Sleeps on the test clock


    @Test func finish_withASentSideEffectSleeping_reportsTheSideEffect_theSleepAndThePromise() async {
        let line: UInt = #line + 2
        let (_, recorder) = await finishedTestStore { store in
            await store.send(LoadAmount())
            await store.send(LoadAmount(delay: .seconds(2)))
            await store.advance(by: .milliseconds(500))
        }
        #expect(recorder.messages == [
            leftBehind
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
            leftBehind
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
            "\(line): " + leftBehind + oneUnassertedAdd,
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
            leftBehind + oneUnassertedAdd,
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
            "\(line): The test store was released without finish(), and the test left work behind:\n" + oneUnassertedAdd,
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
            leftBehind + oneUnassertedAdd,
        ])
    }
}
