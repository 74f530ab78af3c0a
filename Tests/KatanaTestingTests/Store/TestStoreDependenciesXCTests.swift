import Katana
import KatanaTesting
import XCTest

/// Dependencies swapped per test under XCTest.
final class TestStoreDependenciesXCTests: XCTestCase {
    func test_prepareDependencies_swapsWhatSideEffectsUse() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, amount: 7)
        XCTAssertEqual(store.dependencies.amount, 7)
        await store.send(LoadAmount(delay: .zero)) { $0.counter = 7 }
        await store.receive(Add.self) { $0.counter = 7 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }

    func test_anOnStartRulesSideEffect_alreadySeesThePreparedDependencies() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [CountingRules.addingTheDependencyAmountAtStart()], amount: 9)
        await store.receive(AddTheDependencyAmount.self) { $0.counter = 9 }
        await store.receive(Add.self) { $0.counter = 9 }
        await store.finish()
        XCTAssertEqual(recorder.failures, [])
    }
}
