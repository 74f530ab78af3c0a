import Katana
import KatanaTesting
import Testing

/// Every item the store handles that the test did not send is received, whoever dispatched it:
/// an async or a sync side effect, an observer rule (a slow one included), a legacy action's side
/// effect.
@Suite struct TestStoreSourcesTests {
    @Test func anAsyncSideEffectsDispatch_isReceived() async {
        let (store, recorder) = await finishedTestStore { store in
            await store.send(LoadAmount(delay: .seconds(2)))
            await store.advance(by: .seconds(2))
            await store.receive(Add.self) { $0.counter = 41 }
        }
        #expect(recorder.failures == [])
        #expect(store.handledItems.map(\.origin) == [.sent, .received])
    }

    // MARK: Observer rules

    @Test func aSlowObserverRulesDispatch_isWaitedForBeforeTheNextSend() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [CountingRules.slowlyNotingCounterChanges()])
        await store.send(Add(amount: 2)) { $0.counter = 2 }
        await store.send(Add(amount: 1)) {
            $0.counter = 3
            $0.log = ["0->2"]
        }
        #expect(recorder.takeAll().map(\.message) == [
            "Before sending KatanaTestingTests.Add, receive must assert 1 received item: KatanaTestingTests.Note (#1)",
        ])
        await store.skipReceivedItems()
        await store.finish()
        #expect(recorder.failures == [])
    }

    // MARK: Legacy actions

    @available(*, deprecated, message: "Sends a deprecated Katana 2.x action")
    @Test func aLegacyActionsSideEffectDispatch_isReceived() async {
        let (store, recorder) = await finishedTestStore { store in
            await store.send(LegacyAddThenNote(amount: 4)) { $0.counter = 4 }
            await store.receive(LegacyNote.self) { $0.log = ["saw 4"] }
        }
        #expect(recorder.failures == [])
        #expect(store.handledItems.map(\.origin) == [.sent, .received])
    }

    @available(*, deprecated, message: "Sends a deprecated Katana 2.x action")
    @Test func aLegacyActionsSideEffectDispatch_notReceived_isReportedByFinish() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(LegacyAddThenNote(amount: 4)) { $0.counter = 4 }
        }
        #expect(recorder.messages == [
            "The test ended with work left behind:\n• 1 received item not asserted with receive:\n    KatanaTestingTests.LegacyNote (#1)",
        ])
    }
}
