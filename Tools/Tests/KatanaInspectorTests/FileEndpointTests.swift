import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

/// The API a page reads, served by a real server on a loopback port for a recorded todo session.
@Suite struct FileEndpointTests {
    @Test func theSummarySaysWhatTheRecordingIs() async throws {
        let url = try await RecordedSession.record(extra: 20)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let (status, summary) = try await server.json("api/summary")
            #expect(status == 200)
            #expect(summary["count"]?.int == 32)
            #expect(summary["firstPosition"]?.int == 1)
            #expect(summary["lastPosition"]?.int == 32)
            #expect(summary["live"] == .bool(false))
            #expect(summary["stateType"]?.string == "InspectorPageFixture.TodoState")
            #expect(summary["statesRecorded"] == .bool(true))
            #expect(summary["source"]?.string == url.path)
            #expect(summary["gaps"] == .array([]))
        }
    }

    @Test func rowsDescribeEachItemInOrderFromAPosition() async throws {
        let url = try await RecordedSession.record(extra: 20)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let (status, page) = try await server.json("api/items?from=3&limit=6")
            #expect(status == 200)
            let rows = try #require(page["rows"]?.array)
            #expect(rows.map { $0[0]?.int } == [3, 4, 5, 6, 7, 8])
            #expect(rows.map { $0[3]?.string } == [
                "InspectorPageFixture.ToggleTodo", "InspectorPageFixture.AddTodo", "InspectorPageFixture.ImportTodos",
                "InspectorPageFixture.SetFilter", "InspectorPageFixture.RemoveTodo", "InspectorPageFixture.Ping",
            ])
            #expect(rows.map { $0[4]?.string } == ["updater", "updater", "sideEffect", "updater", "updater", "updater"])
            // Item 4 was dispatched by the side effect at position 5, whose sequence it names.
            #expect(rows[1][5]?.string == "sideEffect")
            #expect(rows[1][6]?.string == "InspectorPageFixture.ImportTodos")
            #expect(rows[1][7] == rows[2][1])
            #expect(rows[0][5]?.string == "outside")
            #expect(rows.map { $0[8]?.string } == ["handled", "handled", "handled", "handled", "rejected", "blocked"])
            #expect(rows[4][10]?.string == "no todo with id 99")
            #expect(rows[0][9]?.string == #"{"id":1}"#)
            #expect(page["count"]?.int == 32)

            let all = try await server.json("api/items").value
            #expect(all["rows"]?.array?.count == 32)
            let tail = try await server.json("api/items?from=31").value
            #expect(tail["rows"]?.array?.map { $0[0]?.int } == [31, 32])
            let none = try await server.json("api/items?from=33").value
            #expect(none["rows"] == .array([]))
        }
    }

    @Test func anItemComesWithTheStateAfterItAndWhatItChanged() async throws {
        // Whole states every 3 items, so that items are rebuilt from states and from changes.
        let url = try await RecordedSession.record(extra: 20, snapshotInterval: 3)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let toggle = try await server.json("api/items/3").value
            #expect(toggle["type"]?.string == "InspectorPageFixture.ToggleTodo")
            #expect(toggle["item"] == .object(["id": .integer(1)]))
            #expect(toggle["stateAfter"]?["todos"]?[0]?["done"] == .bool(true))
            #expect(toggle["changes"] == .array([
                .object(["path": .array([.string("todos"), .integer(0), .string("done")]), "op": .string("replace"), "before": .bool(false), "after": .bool(true)]),
            ]))

            let added = try await server.json("api/items/2").value
            let changes = try #require(added["changes"]?.array)
            #expect(changes.contains(.object([
                "path": .array([.string("todos"), .integer(1)]), "op": .string("add"),
                "after": .object(["id": .integer(2), "title": .string("Write report"), "done": .bool(false)]),
            ])))

            let imported = try await server.json("api/items/4").value
            #expect(imported["origin"]?["from"]?.string == "sideEffect")
            #expect(imported["origin"]?["position"]?.int == 5)

            let rejected = try await server.json("api/items/7").value
            #expect(rejected["outcome"]?.string == "rejected")
            #expect(rejected["error"]?.string == "no todo with id 99")
            #expect(rejected["changes"] == .array([]))

            let last = try await server.json("api/items/32").value
            #expect(last["stateAfter"]?["todos"]?[1]?["title"]?.string == "Write report v20")
            #expect(last["changes"]?[0]?["before"]?.string == "Write report v19")
        }
    }

    @Test func aMissingItemOrABadNumberIsAnErrorThatSaysWhatExists() async throws {
        let url = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let missing = try await server.json("api/items/99")
            #expect(missing.status == 404)
            #expect(missing.value["error"]?.string == "no item at position 99: the recording has items 1 to 12")
            let word = try await server.json("api/items/latest")
            #expect(word.status == 400)
            #expect(word.value["error"]?.string?.contains("whole number") == true)
            let badQuery = try await server.json("api/items?from=-1")
            #expect(badQuery.status == 400)
            let unknown = try await server.get("api/nothing")
            #expect(unknown.status == 404)
        }
    }

    @Test func thePageAndItsFilesAreServedWithTheirTypes() async throws {
        let url = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let page = try await server.get("/")
            #expect(page.status == 200)
            #expect(page.contentType?.hasPrefix("text/html") == true)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains("inspector.js"))
            #expect(!html.contains("http://") && !html.contains("https://"), "the page fetches nothing from elsewhere")
            let script = try await server.get("inspector.js")
            #expect(script.status == 200)
            #expect(script.contentType?.hasPrefix("text/javascript") == true)
            let style = try await server.get("inspector.css")
            #expect(style.status == 200)
            #expect(style.contentType?.hasPrefix("text/css") == true)
        }
    }
}
