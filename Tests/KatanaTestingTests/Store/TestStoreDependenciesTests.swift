import Katana
import KatanaTesting
import Testing

/// Dependencies swapped per test with `prepareDependencies`, before the store starts.
@Suite struct TestStoreDependenciesTests {
    @Test func prepareDependencies_swapsWhatSideEffectsUse() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, amount: 7)
        #expect(store.dependencies.amount == 7)
        #expect(store.dependencies.clock is TestClock)
        await store.send(LoadAmount(delay: .zero)) { $0.counter = 7 }
        await store.receive(Add.self) { $0.counter = 7 }
        await store.finish()
        #expect(recorder.failures == [])
    }

    @Test func twoStores_eachUseTheirOwnDependencies() async {
        let recorder = TestFailureRecorder()
        let first = makeTestStore(recorder: recorder, amount: 1)
        let second = makeTestStore(recorder: recorder, amount: 100)
        await first.send(LoadAmount(delay: .zero)) { $0.counter = 1 }
        await second.send(LoadAmount(delay: .zero)) { $0.counter = 100 }
        await first.receive(Add.self) { $0.counter = 1 }
        await second.receive(Add.self) { $0.counter = 100 }
        await first.finish()
        await second.finish()
        #expect(recorder.failures == [])
    }

    @Test func anOnStartRulesSideEffect_alreadySeesThePreparedDependencies() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [CountingRules.addingTheDependencyAmountAtStart()], amount: 9)
        await store.receive(AddTheDependencyAmount.self) { $0.counter = 9 }
        await store.receive(Add.self) { $0.counter = 9 }
        await store.finish()
        #expect(recorder.failures == [])
    }

    @Test func whatTheStartDispatched_mustBeReceivedBeforeTheFirstSend() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [CountingRules.addingTheDependencyAmountAtStart()], amount: 9)
        await store.send(Add(amount: 1)) { $0.counter = 10 }
        await store.skipReceivedItems()
        await store.finish()
        #expect(recorder.messages == [
            "Before sending KatanaTestingTests.Add, receive must assert 2 received items: KatanaTestingTests.AddTheDependencyAmount (#0), KatanaTestingTests.Add (#1)",
        ])
    }
}
