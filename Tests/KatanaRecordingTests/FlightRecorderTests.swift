import Foundation
import Katana
import KatanaRecording
import KatanaTestSupport
import Testing

/// The flight recorder keeps exactly the last N items, in order, under many dispatching threads.
@Suite struct FlightRecorderTests {
    @Test func sixteenThreadsDispatchingLeaveExactlyTheLastNItems() async throws {
        let capacity = 100
        let threads = 16
        let perThread = 50
        let flight = FlightRecorder<TodoState>(capacity: capacity)
        let store = TodoStore(interceptors: Interceptors { StoreRecorder(to: flight) })
        // Each thread dispatches its items without waiting for each (a thread per dispatch
        // waiting would hold the machine's cores for seconds); the store then handles them all.
        let promises = LockedList<Promise<Void>>()
        let finished = LockedList<Int>()
        for thread in 0 ..< threads {
            Thread.detachNewThread {
                for index in 0 ..< perThread {
                    promises.append(store.dispatch(AddTodo(title: "\(thread)-\(index)")))
                }
                finished.append(thread)
            }
        }
        // Awaited without blocking a thread of the cooperative pool, which other tests need: the
        // threads' ends wake the first wait, the store's activity the second. The store is idle
        // once the last item's recorder has appended it, which can be after its promise settled.
        let dispatched = threads * perThread
        try await finished.waitForCount(threads)
        try await store.waitUntil("every todo added, recorded and settled") {
            store.state.todos.count == dispatched && store.workSnapshot.isIdle && !promises.all.contains { $0.isPending }
        }
        #expect(promises.count == dispatched)

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

    @Test func beforeAnyItemItHasNoItemsAndItsRecordingReplaysNothing() throws {
        let flight = FlightRecorder<TodoState>(capacity: 10)
        #expect(flight.items.isEmpty)
        #expect(flight.stateBeforeFirstItem == nil)
        // Nothing recorded yet, not even a header: reading it says the recording is empty.
        #expect(throws: RecordingError.empty(source: "the recording")) {
            try Recording<TodoState>(data: flight.recordingData())
        }
        let store = TodoStore(interceptors: Interceptors { StoreRecorder(to: flight) })
        _ = store.state
        #expect(flight.stateBeforeFirstItem == TodoState())
        let recording = try Recording<TodoState>(data: flight.recordingData())
        #expect(recording.entries.isEmpty)
        let report = try recording.replay(into: TodoApp.replayStore(), items: TodoApp.replayable)
        #expect(report.matches && report.replayedItems == 0)
    }

    @Test func aCapacityBelowOneKeepsOne() async throws {
        let flight = FlightRecorder<TodoState>(capacity: 0)
        #expect(flight.capacity == 1)
        let store = TodoStore(interceptors: Interceptors { StoreRecorder(to: flight) })
        try await store.dispatchRecorded(AddTodo(title: "a"))
        try await store.dispatchRecorded(AddTodo(title: "b"))
        #expect(flight.items.map { ($0.item as? AddTodo)?.title } == ["b"])
    }
}

