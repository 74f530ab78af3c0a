import Foundation
import Katana
import KatanaRecording
import Testing

/// The flight recorder keeps exactly the last N items, in order, under many dispatching threads.
@Suite struct FlightRecorderTests {
    @Test func sixteenThreadsDispatchingLeaveExactlyTheLastNItems() async throws {
        let capacity = 100
        let threads = 16
        let perThread = 50
        let flight = FlightRecorder<TodoState>(capacity: capacity)
        let store = TodoStore(interceptors: Interceptors { StoreRecorder(to: flight) })
        let failures = LockedCount()
        let finished = LockedCount()
        for thread in 0 ..< threads {
            Thread.detachNewThread {
                for index in 0 ..< perThread {
                    do {
                        try store.dispatch(AddTodo(title: "\(thread)-\(index)")).wait(timeout: .seconds(30))
                    } catch {
                        failures.add()
                    }
                }
                finished.add()
            }
        }
        // Awaited without blocking a thread of the cooperative pool, which other tests need.
        let deadline = ContinuousClock.now + .seconds(60)
        while finished.value < threads, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(finished.value == threads)
        #expect(failures.value == 0)

        let items = flight.items
        let total = UInt64(threads * perThread)
        #expect(items.count == capacity)
        #expect(items.map(\.position) == Array(total - UInt64(capacity) + 1 ... total))
        // Each kept item's state holds every todo up to it, and the state before the first kept
        // item is the one just before it.
        for (offset, item) in items.enumerated() {
            #expect(item.stateAfter.todos.count == Int(item.position))
            #expect(item.stateAfter.todos.last?.title == (item.item as? AddTodo)?.title)
            if offset > 0 {
                #expect(Array(item.stateAfter.todos.dropLast()) == items[offset - 1].stateAfter.todos)
            }
        }
        #expect(flight.stateBeforeFirstItem?.todos.count == Int(total) - capacity)

        // What it dumps replays from the state before its first item.
        let recording = try Recording<TodoState>(data: flight.recordingData())
        #expect(recording.entries.count == capacity)
        let base = try #require(flight.stateBeforeFirstItem)
        let replayStore = TodoStore(interceptors: [], stateInitializer: { base })
        #expect(try recording.replay(into: replayStore, items: TodoApp.replayable).matches)
        #expect(replayStore.state == store.state)
    }

    @Test func aCapacityBelowOneKeepsOne() throws {
        let flight = FlightRecorder<TodoState>(capacity: 0)
        #expect(flight.capacity == 1)
        let store = TodoStore(interceptors: Interceptors { StoreRecorder(to: flight) })
        try store.dispatch(AddTodo(title: "a")).wait(timeout: .seconds(10))
        try store.dispatch(AddTodo(title: "b")).wait(timeout: .seconds(10))
        #expect(flight.items.map { ($0.item as? AddTodo)?.title } == ["b"])
    }
}

/// A counter several threads add to.
final class LockedCount: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
