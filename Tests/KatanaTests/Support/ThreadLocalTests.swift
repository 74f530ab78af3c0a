import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// The package's per-thread slots (`ThreadLocal`, on the C thread-local array): each thread and each
/// slot holds its own object, a new thread starts with every slot empty, and a replacement is undone.
@Suite struct ThreadLocalTests {
    private final class Marker: Sendable {}

    @Test func aSlotReplacedOnOneThreadIsEmptyOnAnother_andRestoredAfterwards() async throws {
        let slot = ThreadLocal<Marker>(.interceptorRun)
        let seenElsewhere = try await onThreadOfItsOwn("the marker put in the slot on this thread") { () -> Bool in
            let marker = Marker()
            let previous = slot.replace(with: marker)
            defer { slot.restore(previous) }
            let here = slot.current === marker && slot.currentPointer == Unsafe.opaque(marker)
            // A second thread, started while this one holds the marker, sees an empty slot.
            let group = DispatchGroup()
            let elsewhere = LockedValue<UnsafeMutableRawPointer?>(UnsafeMutableRawPointer(bitPattern: 1))
            group.enter()
            Thread {
                elsewhere.withLock { $0 = slot.currentPointer }
                group.leave()
            }.start()
            let ended = group.wait(timeout: .now() + .seconds(30)) == .success
            return here && ended && elsewhere.withLock { $0 } == nil
        }
        #expect(seenElsewhere)
    }

    @Test func eachSlotHoldsItsOwnObject_andNestedReplacementsUnwindInOrder() async throws {
        let unwound = try await onThreadOfItsOwn("nested replacements in two slots") { () -> [Bool] in
            let runs = ThreadLocal<Marker>(.interceptorRun)
            let deliveries = ThreadLocal<Marker>(.delivery)
            let outer = Marker()
            let inner = Marker()
            let other = Marker()
            var checks = [runs.current == nil, deliveries.current == nil]
            let first = runs.replace(with: outer)
            let second = deliveries.replace(with: other)
            let third = runs.replace(with: inner)
            checks += [runs.current === inner, deliveries.current === other]
            runs.restore(third)
            checks += [runs.current === outer, deliveries.current === other]
            deliveries.restore(second)
            runs.restore(first)
            checks += [runs.current == nil, deliveries.current == nil]
            return checks
        }
        #expect(unwound == Array(repeating: true, count: 8))
    }

    @Test func everySlotFitsTheArray() {
        #expect(ThreadSlot.allCases.allSatisfy { $0.rawValue >= 0 && $0.rawValue < ThreadSlot.capacity })
        #expect(Set(ThreadSlot.allCases.map(\.rawValue)).count == ThreadSlot.allCases.count)
    }
}
