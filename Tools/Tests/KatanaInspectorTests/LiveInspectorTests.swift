import Foundation
import HummingbirdWSClient
@testable import InspectorPageFixture
import Katana
@testable import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Logging
import Testing

/// A running store served by a `LiveInspector`: its items on the API and on the live stream as
/// they are recorded, a bounded history, and a page that never reads which does not hold it up.
@Suite struct LiveInspectorTests {
    /// A store served by a live inspector on a free port, once it listens, after the todo
    /// session's scripted items; the caller stops the inspector.
    static func servedSession() async throws -> (LiveInspector<TodoState>, TodoStore, URL) {
        let inspector = LiveInspector<TodoState>(configuration: InspectorConfiguration(port: 0))
        let session = TodoApp.session(recordingInto: inspector)
        do {
            let url = try await withTimeout("the live inspector to listen") { try await inspector.serving() }
            try await TodoApp.playSession(session, extra: 0)
            inspector.flush()
            return (inspector, session.store, url)
        } catch {
            inspector.stop()
            throw error
        }
    }

    @Test func aLiveStoreIsServedAndNewItemsAppearInTheAPI() async throws {
        let (inspector, store, url) = try await Self.servedSession()
        defer { inspector.stop() }

        let summary = try await ServedInspector.get(try #require(URL(string: "api/summary", relativeTo: url)))
        let value = try JSONDecoder().decode(JSONValue.self, from: summary.body)
        #expect(value["live"] == .bool(true))
        #expect(value["source"]?.string == "live store")
        #expect(value["count"]?.int == TodoApp.scriptedItems)
        #expect(inspector.lastPosition == UInt64(TodoApp.scriptedItems))

        try await store.dispatch(AddTodo(title: "Live item")).settled()
        inspector.flush()
        let detail = try await ServedInspector.get(try #require(URL(string: "api/items/\(TodoApp.scriptedItems + 1)", relativeTo: url)))
        let added = try JSONDecoder().decode(JSONValue.self, from: detail.body)
        #expect(added["type"]?.string == "InspectorPageFixture.AddTodo")
        #expect(added["stateAfter"]?["todos"]?[3]?["title"]?.string == "Live item")
    }

    @Test func theLiveStreamSendsWhatThePageLacksThenEachNewItem() async throws {
        let (inspector, store, url) = try await Self.servedSession()
        defer { inspector.stop() }

        // The rows' positions, in the order they came; each one wakes the waits below.
        let received = LockedList<Int>()
        let socketURL = "ws://127.0.0.1:\(url.port ?? 0)/api/live?after=5"
        let client = Task {
            try await WebSocketClient.connect(url: socketURL, logger: Logger(label: "test")) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 24) {
                    guard case .text(let text) = message else { continue }
                    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                    let positions = value["rows"]?.array?.compactMap { $0[0]?.int } ?? []
                    for position in positions {
                        received.append(position)
                    }
                }
            }
        }
        defer { client.cancel() }
        let scripted = Array(6 ... TodoApp.scriptedItems)
        try await received.waitUntil("the rows after position 5") { $0 == scripted }
        try await store.dispatch(AddTodo(title: "Live item")).settled()
        try await received.waitUntil("the new item on the stream") { $0 == scripted + [TodoApp.scriptedItems + 1] }

        // Stopping the inspector closes the page's stream rather than waiting for the page to leave.
        inspector.stop()
        _ = try await withTimeout("the stream to close when the inspector stops") { try await client.value }
    }

    @Test func aLiveInspectorKeepsItsLimitAndTheStatesOfWhatItKeeps() async throws {
        let inspector = LiveInspector<TodoState>(configuration: InspectorConfiguration(port: 0, liveItemLimit: 200))
        defer { inspector.stop() }
        let session = TodoApp.session(recordingInto: inspector)
        let store = session.store
        let url = try await withTimeout("the live inspector to listen") { try await inspector.serving() }
        try await TodoApp.playSession(session, extra: 500 - TodoApp.scriptedItems)
        inspector.flush()

        #expect(inspector.lastPosition == 500)
        #expect(inspector.itemCount <= 200)
        let summary = try JSONDecoder().decode(JSONValue.self, from: try await ServedInspector.get(try #require(URL(string: "api/summary", relativeTo: url))).body)
        let first = try #require(summary["firstPosition"]?.int)
        #expect(first > 300)
        let oldest = try JSONDecoder().decode(JSONValue.self, from: try await ServedInspector.get(try #require(URL(string: "api/items/\(first)", relativeTo: url))).body)
        // Renames after the scripted items: item p sets version p - scripted, and the state before
        // it had the one before.
        #expect(oldest["stateAfter"]?["todos"]?[1]?["title"]?.string == "Write report v\(first - TodoApp.scriptedItems)")
        #expect(oldest["changes"]?[0]?["before"]?.string == "Write report v\(first - TodoApp.scriptedItems - 1)")
        let gone = try await ServedInspector.get(try #require(URL(string: "api/items/1", relativeTo: url)))
        #expect(gone.status == 404)
        #expect(store.state.todos[1].title == "Write report v\(500 - TodoApp.scriptedItems)")
    }

    @Test func aPageThatNeverReadsIsDroppedAndTheStoreNeverWaitsForIt() async throws {
        let inspector = LiveInspector<TodoState>(configuration: InspectorConfiguration(port: 0, slowClientTimeout: .seconds(1)))
        defer { inspector.stop() }
        let session = TodoApp.session(recordingInto: inspector)
        let store = session.store
        let url = try await withTimeout("the live inspector to listen") { try await inspector.serving() }
        let stalled = try RawRequest.liveStream(port: url.port ?? 0, after: 0)
        try await poll("the page's live stream to open") { inspector.openLiveConnections == 1 }

        // About 12 MB of rows (more than the two sockets' buffers hold) for a page that takes none.
        try await TodoApp.playSession(session, extra: 0)
        let long = String(repeating: "a long title ", count: 12)
        for version in 1 ... 30_000 {
            let renamed = store.dispatch(RenameTodo(id: 2, title: long + "\(version)"))
            if version == 30_000 {
                try await renamed.settled()
            }
        }
        #expect(store.state.todos[1].title == long + "30000")
        try await poll("the inspector to take every item", timeout: .seconds(120)) {
            inspector.flush()
            return inspector.lastPosition == UInt64(30_000 + TodoApp.scriptedItems)
        }
        #expect(inspector.droppedCount == 0)
        // The server closed the connection of the page that never reads (a page that reads stays
        // connected) once a write had waited 1 s, though the page still reads nothing: the
        // WebSocket's closing handshake would wait on the full socket for as long as the page does.
        try await poll("the server to close the stalled page's connection") {
            inspector.openLiveConnections == 0
        }
        let closed = try await stalled.readsToTheEnd(within: .seconds(20))
        #expect(closed, "the page never saw its connection closed")
    }

    @Test func aLiveInspectorThatCannotServeSaysWhyAndTheStoreGoesOn() async throws {
        let inspector = LiveInspector<TodoState>(configuration: InspectorConfiguration(host: "0.0.0.0", port: 0))
        let session = TodoApp.session(recordingInto: inspector)
        let store = session.store
        try await TodoApp.playSession(session, extra: 3)
        #expect(store.state.todos.count == 3)
        await #expect(throws: InspectorError.tokenRequired(host: "0.0.0.0")) {
            try await inspector.serving()
        }
    }
}
