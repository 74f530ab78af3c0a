import Dispatch
import Foundation
import Katana
@testable import KatanaRecording
import KatanaTestSupport
import Testing

/// A recording stream's buffer bounded in bytes as well as in items: each waiting item holds a
/// state of its own, so a large state fills the bound with a few items.
@Suite struct StreamByteBoundTests {
    @Test func aStreamWhoseOutputIsSlowKeepsWhatWaitsUnderItsByteBoundAndSaysHowManyItDropped() async throws {
        let gate = DispatchSemaphore(value: 0)
        // Each batch as it arrives, before it waits at the gate.
        let batches = LockedList<Data>()
        let stream = RecordingStream<TodoState>(bufferByteLimit: 1 << 20) { lines in
            batches.append(lines)
            _ = gate.wait(timeout: .now() + .seconds(Int(holdTimeout.components.seconds)))
        }
        // Whichever way the test ends, the output is let go (the gate holds it for minutes).
        defer { for _ in 0 ..< 10 { gate.signal() } }
        // About 200 KB of JSON: the 1 MiB bound holds a few items, where the item bound holds 100,000.
        let title = String(repeating: "t", count: 1_000)
        let start = TodoState(todos: (0 ..< 200).map { TodoState.Todo(title: "\($0) \(title)") })
        let store = TodoStore(interceptors: Interceptors { StoreRecorder(to: [stream]) }, stateInitializer: { start })
        // The header's batch waits at the gate, counted with the state it carries.
        try await batches.waitForCount(1)
        for index in 0 ..< 50 {
            try await store.dispatch(AddTodo(title: "new \(index)")).settled()
        }
        // A promise can settle before the recorder, an interceptor, has appended its item.
        try await store.waitUntilIdle()
        #expect(stream.waitingBytes <= stream.bufferByteLimit)
        let dropped = stream.droppedCount
        #expect(dropped >= 40, "only a few items of a 200 KB state fit in 1 MiB")

        for _ in 0 ..< 10 {
            gate.signal()
        }
        stream.flush()
        let lines = batches.lines.map { String(decoding: $0, as: UTF8.self) }
        // The header, the items kept, and the line that says how many were dropped.
        #expect(lines.count == 1 + (50 - Int(dropped)) + 1)
        #expect(lines.last == #"{"gap":\#(dropped)}"#)
        #expect(store.state.todos.count == 250)
    }
}
