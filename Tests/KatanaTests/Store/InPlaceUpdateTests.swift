import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// A state with a big array, built with room to grow so an append never has to reallocate.
private struct BigState: State {
    var items: [Int] = []
    init() {}
    init(count: Int, spare: Int) {
        items = Array(repeating: 0, count: count)
        items.reserveCapacity(count + spare)
    }
}

private struct BufferAddresses: Equatable, Sendable {
    let before: UInt
    let after: UInt
}

/// Appends to the big array and records the array buffer's address before and after.
private struct AppendAndProbe: StateUpdater {
    let value: Int
    let probe: LockedList<BufferAddresses>
    func updateState(_ state: inout BigState) {
        let before = state.items.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        state.items.append(value)
        let after = state.items.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        probe.append(BufferAddresses(before: before, after: after))
    }
}

private typealias BigStore = Store<BigState, EmptySideEffectDependencyContainer>

private func makeBigStore() -> BigStore {
    BigStore(
        interceptors: [],
        stateInitializer: { BigState(count: 1_000_000, spare: 100) },
        configuration: .init(listenersAsyncProvider: DispatchQueue(label: "test.big.listeners"))
    )
}

/// Store semantics 6: an updater mutates a large state in place when nothing else holds it.
@Suite struct InPlaceUpdateTests {
    @Test func updaterAppendingToBigArray_doesNotCopyItWithoutListeners() async throws {
        let store = makeBigStore()
        let probe = LockedList<BufferAddresses>()
        var last: Promise<Void>?
        for value in 1...20 {
            last = store.dispatch(AppendAndProbe(value: value, probe: probe))
        }
        try await last?.settled()

        let addresses = probe.all
        try #require(addresses.count == 20)
        // No copy inside an update...
        #expect(addresses.allSatisfy { $0.before == $0.after })
        // ...and none between updates: every updater finds the buffer the previous one left.
        #expect(zip(addresses, addresses.dropFirst()).allSatisfy { $0.after == $1.before })
        #expect(store.state.items.count == 1_000_020)
        #expect(Array(store.state.items.suffix(3)) == [18, 19, 20])
    }

    /// Control: the probe does see a copy when a listener keeps the previous state.
    @Test func updaterAppendingToBigArray_copiesWhenListenerNeedsOldState() async throws {
        let store = makeBigStore()
        let oldCounts = LockedList<Int>()
        store.addListener { old, _ in oldCounts.append(old.items.count) }
        let probe = LockedList<BufferAddresses>()
        try await store.dispatch(AppendAndProbe(value: 1, probe: probe)).settled()
        let addresses = probe.all
        try #require(addresses.count == 1)
        #expect(addresses[0].before != addresses[0].after)
        try await oldCounts.waitUntil { $0 == [1_000_000] }
    }
}
