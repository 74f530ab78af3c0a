import Testing
@testable import Katana
import KatanaTestSupport

/// A state updater too large for an existential's inline buffer of three words: stored in a box.
private struct WideUpdater: StateUpdater {
    var first = 1, second = 2, third = 3, fourth = 4, fifth = 5

    func updateState(_ state: inout CounterState) {
        state.counter += first + second + third + fourth + fifth
    }
}

/// `Unsafe.storedType(of:)` reads the held type out of an existential container at the offset
/// Swift's ABI fixes; it must agree with the type found by opening the existential.
@Suite struct UnsafeStoredTypeTests {
    /// The type an existential holds, found the safe way: by opening it.
    private func openedType(of item: any Dispatchable) -> ObjectIdentifier {
        func open<Item: Dispatchable>(_: Item) -> ObjectIdentifier {
            ObjectIdentifier(Item.self)
        }
        return open(item)
    }

    @Test func agreesWithTheOpenedType_forInlineBoxedAndClassValues() {
        let base: CountingUpdater = CountingUpdaterWithSideEffect()
        let items: [any Dispatchable] = [
            Increment(amount: 1), WideUpdater(), CountingUpdater(), base, ReadCounter(),
        ]
        for item in items {
            #expect(Unsafe.storedType(of: item) == openedType(of: item), "\(type(of: item))")
        }
        #expect(Unsafe.storedType(of: items[1]) == ObjectIdentifier(WideUpdater.self))
        #expect(Unsafe.storedType(of: items[0]) != Unsafe.storedType(of: items[1]))
    }

    @Test func theContainerIsThreeWordsOfValueThenMetadataThenWitnessTable() {
        #expect(MemoryLayout<any Dispatchable>.size == 5 * MemoryLayout<UnsafeRawPointer>.size)
    }

    @Test func aWideUpdaterIsHandledAsAnUpdater_afterANarrowOne() async throws {
        let store = makeStore()
        try await store.dispatch(Increment(amount: 1)).settled()
        try await store.dispatch(WideUpdater()).settled()
        try await store.dispatch(WideUpdater()).settled()
        #expect(store.state.counter == 31)
    }
}
