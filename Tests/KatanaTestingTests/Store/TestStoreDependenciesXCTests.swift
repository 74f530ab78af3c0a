import Katana
import KatanaTesting
import XCTest

/// Dependencies swapped per test under XCTest.
final class TestStoreDependenciesXCTests: XCTestCase {
    func test_prepareDependencies_swapsWhatSideEffectsUse() async {
        let (_, recorder) = await finishedTestStore(amount: 7) { store in
            XCTAssertEqual(store.dependencies.amount, 7)
            await store.send(LoadAmount(delay: .zero)) { $0.counter = 7 }
            await store.receive(Add.self) { $0.counter = 7 }
        }
        XCTAssertEqual(recorder.failures, [])
    }
}
