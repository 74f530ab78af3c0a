import Foundation
@testable import InspectorPageFixture
import Katana
@testable import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Testing

/// The request each item was dispatched for (its correlation, as the recorder named it), as the
/// API tells a page: last in each timeline row, and in an item's detail; from a file and from a
/// live store alike.
@Suite struct CorrelationAPITests {
    /// The correlation column of a row.
    static func correlation(_ row: JSONValue) -> JSONValue? {
        row[12]
    }

    /// What the fixture's session dispatched for each request, position by position, and null for
    /// the rest of its `count` items.
    static func expectedColumn(count: Int) -> [JSONValue] {
        (1 ... count).map { position in
            TodoApp.requests.first { $0.value.contains(position) }.map { JSONValue.string($0.key) } ?? .null
        }
    }

    /// How many rows the live stream's `messages` brought.
    static func rowCount(_ messages: [JSONValue]) -> Int {
        LiveStreamReader.messages("items", in: messages).reduce(0) { $0 + ($1["rows"]?.array?.count ?? 0) }
    }

    @Test func rowsAndDetailsOfARecordingCarryEachItemsRequest() async throws {
        let url = try await RecordedSession.record(extra: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let page = try await server.json("api/items").value
            let rows = try #require(page["rows"]?.array)
            #expect(rows.map { $0.array?.count } == Array(repeating: 13, count: rows.count), "every row has the column, null or not")
            #expect(rows.map { Self.correlation($0) } == Self.expectedColumn(count: TodoApp.scriptedItems + 2))

            // The import's AddTodo (#4), dispatched by its side effect, carries the side effect's request.
            let imported = try await server.json("api/items/4").value
            #expect(imported["correlation"]?.string == "request-1")
            #expect(imported["origin"]?["position"]?.int == 5)
            let filter = try await server.json("api/items/6").value
            #expect(filter["correlation"]?.string == "request-2")
            let rejected = try await server.json("api/items/7").value
            #expect(rejected["correlation"] == .null, "dispatched outside any request")
        }
    }

    @Test func aLiveStoresRowsCarryEachItemsRequestAsTheyArrive() async throws {
        let (inspector, store, url) = try await LiveInspectorTests.servedSession()
        defer { inspector.stop() }
        let loaded = try JSONDecoder().decode(
            JSONValue.self, from: try await ServedInspector.get(try #require(URL(string: "api/items", relativeTo: url))).body
        )
        let rows = try #require(loaded["rows"]?.array)
        #expect(rows.map { Self.correlation($0) } == Self.expectedColumn(count: TodoApp.scriptedItems))

        let stream = LiveStreamReader(url: "ws://127.0.0.1:\(url.port ?? 0)/api/live?after=\(TodoApp.scriptedItems)")
        defer { stream.stop() }
        try await RequestID.$current.withValue("request-3") {
            try await store.dispatch(ImportTodos(titles: ["Live item"])).settled()
        }
        // The import is recorded once its interceptors are done, which may be after its promise
        // settles: the next item waits for its rows, to come after them.
        try await stream.messages.waitUntil("the import's two rows on the stream") { Self.rowCount($0) >= 2 }
        try await store.dispatch(AddTodo(title: "Outside")).settled()
        let first = TodoApp.scriptedItems + 1
        let received = try await stream.messages.waitUntil("the three new rows on the stream") { Self.rowCount($0) >= 3 }
        let newRows = LiveStreamReader.messages("items", in: received).flatMap { $0["rows"]?.array ?? [] }
        #expect(newRows.map { $0[0]?.int } == [first, first + 1, first + 2])
        #expect(newRows.map { $0[3]?.string } == [
            "InspectorPageFixture.AddTodo", "InspectorPageFixture.ImportTodos", "InspectorPageFixture.AddTodo",
        ])
        #expect(newRows.map { Self.correlation($0) } == [.string("request-3"), .string("request-3"), .null])

        inspector.flush()
        let detail = try await ServedInspector.get(try #require(URL(string: "api/items/\(first)", relativeTo: url)))
        let added = try JSONDecoder().decode(JSONValue.self, from: detail.body)
        #expect(added["correlation"]?.string == "request-3")
    }
}
