import Katana
import KatanaTesting
import Testing

/// Dependencies swapped per test with `prepareDependencies`, before the store starts.
@Suite struct TestStoreDependenciesTests {
    @Test func prepareDependencies_swapsWhatSideEffectsUse() async {
        let (_, recorder) = await finishedTestStore(amount: 7) { store in
            #expect(store.dependencies.amount == 7)
            #expect(store.dependencies.clock is TestClock)
            await store.send(LoadAmount(delay: .zero)) { $0.counter = 7 }
            await store.receive(Add.self) { $0.counter = 7 }
        }
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
}
