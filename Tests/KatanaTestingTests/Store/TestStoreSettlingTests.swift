import Katana
import KatanaTesting
import Testing

/// Settling is bounded by the store's `timeout`, but a store that has settled is never reported
/// as unsettled: the test store looks at it at least once before it gives up, however small the
/// timeout, and however late a starved test process wakes from its last pause. Settling waits on
/// signals: work that ends outside the store's view (outside work, a clock activity) wakes it.
@Suite struct TestStoreSettlingTests {
    @Test func finish_ofAnIdleStore_withAZeroTimeout_reportsNothing() async {
        let (_, recorder) = await finishedTestStore { store in
            store.timeout = .zero
        }
        #expect(recorder.messages == [])
    }

    @Test func skipReceivedItems_ofAnIdleStore_withAZeroTimeout_reportsNothing() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        store.timeout = .zero
        let skipped = await store.skipReceivedItems()
        store.timeout = .seconds(5)
        await store.finish()
        #expect(skipped == 0)
        #expect(recorder.messages == [])
    }

    @Test func aStoreThatDoesNotSettle_isStillReportedWhenTheTimeoutRunsOut() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        let gate = Gate()
        await store.send(LaunchGateWait(gate: gate))
        await store.receive(AwaitGate.self)
        // A task on the clock's executor that is busy (not suspended) keeps the store unsettled.
        let busy = store.clock.beginActivity()
        store.timeout = .milliseconds(20)
        await store.finish()
        busy.end()
        gate.open()
        #expect(recorder.messages == [
            "The test ended with work left behind:\n"
                + "• 1 side effect still running:\n    KatanaTestingTests.AwaitGate (#1)\n"
                + "• the store did not settle within 0.02 seconds: 1 async side effect running or suspended; tasks on the test clock's executor are running (one may be blocked, or awaiting something outside the store and the clock)",
        ])
    }

    // MARK: Waiting on signals

    /// What keeps the test store from settling while a side effect pauses for real.
    enum PauseHeldBy: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Outside work begun on the store.
        case outsideWork = "outside work"
        /// An activity on the test clock, whose end reaches the waiting send through the clock's
        /// observers.
        case clockActivity = "an activity on the clock"

        var testDescription: String { rawValue }
    }

    @Test(.enabled(if: clockExecutorIsAvailable, "the side effect's tail runs on the clock's executor"), arguments: PauseHeldBy.allCases)
    func send_ofASideEffectHeldForARealPause_settlesOnceTheUpdaterItDispatchesIsHandled(heldBy: PauseHeldBy) async {
        let (_, recorder) = await finishedTestStore { store in
            // The updater comes after a real 50 ms pause; the send's check sees it already applied.
            switch heldBy {
            case .outsideWork:
                await store.send(AddAfterOutsideWork(pause: .milliseconds(50))) { $0.counter = 1 }
            case .clockActivity:
                await store.send(AddWhileHoldingTheClock(pause: .milliseconds(50))) { $0.counter = 1 }
            }
            #expect(store.state.counter == 1)
            await store.receive(Add.self) { $0.counter = 1 }
        }
        #expect(recorder.messages == [])
    }
}
