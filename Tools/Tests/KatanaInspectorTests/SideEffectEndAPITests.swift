import Foundation
@testable import InspectorPageFixture
import Katana
@testable import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Testing

/// How side effects ended, as the API tells a page: in the timeline's rows, in an item's detail,
/// and on the live stream when an end comes after its row.
@Suite struct SideEffectEndAPITests {
    /// The end column of the row at `position` (from 1) of `rows`.
    static func end(_ rows: [JSONValue], _ position: Int) -> JSONValue? {
        rows[position - 1][11]
    }

    /// The row at `position` among the live stream's `messages`, if one has come.
    static func row(_ position: Int, in messages: [JSONValue]) -> JSONValue? {
        LiveStreamReader.messages("items", in: messages).flatMap { $0["rows"]?.array ?? [] }.first { $0[0]?.int == position }
    }

    /// The end of the side effect numbered `sequence` among the live stream's `messages`, if one has come.
    static func sideEffectEnd(_ sequence: Int, in messages: [JSONValue]) -> JSONValue? {
        LiveStreamReader.messages("ends", in: messages).flatMap { $0["ends"]?.array ?? [] }.first { $0[0]?.int == sequence }
    }

    @Test func aSideEffectsRowCarriesHowItEndedAndOtherRowsNone() async throws {
        let url = try await RecordedSession.record(extra: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let page = try await server.json("api/items").value
            let rows = try #require(page["rows"]?.array)
            #expect(rows.count == TodoApp.scriptedItems + 2)
            // Five side effects ended: the import (whose end came before its item), two searches
            // cancelled by a newer one, that one, and the failed sync.
            #expect(page["endCursor"]?.int == 5)
            for updater in [1, 2, 3, 4, 6, 7, 8, 13, 14] {
                #expect(Self.end(rows, updater) == .null, "row \(updater)")
            }
            #expect(Self.end(rows, 5)?[0]?.string == "succeeded")
            for search in [9, 10] {
                let end = try #require(Self.end(rows, search))
                #expect(end[0]?.string == "cancelled")
                #expect((end[1]?.int ?? 0) > 0, "a cancelled search ran a while before it was cancelled")
                #expect(end[2]?.string == "latestWins")
                #expect(end[3] == .bool(true))
            }
            let found = try #require(Self.end(rows, 11))
            #expect(found[0]?.string == "succeeded")
            #expect((found[1]?.int ?? 0) >= 20_000, "its body slept 20 ms")
            #expect(found[2] == .null)
            let sync = try #require(Self.end(rows, 12))
            #expect(sync[0]?.string == "failed")
            #expect(sync[2]?.string == "the sync server answered 503 Service Unavailable")
        }
    }

    @Test func anItemsDetailSaysHowItsSideEffectEnded() async throws {
        let url = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path) { server in
            let search = try await server.json("api/items/9").value
            let end = try #require(search["end"])
            #expect(end["outcome"]?.string == "cancelled")
            #expect(end["cancelledBy"]?.string == "latestWins")
            #expect(end["error"] == .null)
            #expect(end["began"] == .bool(true))
            #expect((end["durationMicroseconds"]?.int ?? 0) > 0)
            let ended = try #require(end["time"]?.int)
            let started = try #require(search["time"]?.int)
            #expect(ended >= started && ended - started < 600_000, "the end's time is in milliseconds, as the item's")

            let sync = try await server.json("api/items/12").value
            #expect(sync["end"]?["outcome"]?.string == "failed")
            #expect(sync["end"]?["error"]?.string == "the sync server answered 503 Service Unavailable")
            #expect(sync["end"]?["cancelledBy"] == .null)
            #expect(sync["outcome"]?.string == "handled", "the store took it; its body failed later")

            let toggle = try await server.json("api/items/3").value
            #expect(toggle["end"] == .null)
        }
    }

    @Test func theLiveStreamSendsAnEndThatComesAfterItsRow() async throws {
        let (inspector, store, url) = try await LiveInspectorTests.servedSession()
        defer { inspector.stop() }
        // The page loads the rows, with the end cursor they go with, then opens the live stream.
        let loaded = try JSONDecoder().decode(JSONValue.self, from: try await ServedInspector.get(try #require(URL(string: "api/items", relativeTo: url))).body)
        let endCursor = try #require(loaded["endCursor"]?.int)
        let stream = LiveStreamReader(url: "ws://127.0.0.1:\(url.port ?? 0)/api/live?after=\(TodoApp.scriptedItems)&ends=\(endCursor)")
        defer { stream.stop() }

        _ = store.dispatch(RefreshTodos())
        let position = TodoApp.scriptedItems + 1
        let withRow = try await stream.messages.waitUntil("the refresh's row on the stream") { Self.row(position, in: $0) != nil }
        let row = try #require(Self.row(position, in: withRow))
        #expect(row[11] == .null, "it is still running")
        let sequence = try #require(row[1]?.int)

        #expect(store.cancelSideEffects(id: "refresh") == 1)
        let withEnd = try await stream.messages.waitUntil("the refresh's end on the stream") { Self.sideEffectEnd(sequence, in: $0) != nil }
        let end = try #require(Self.sideEffectEnd(sequence, in: withEnd))
        #expect(end[1]?.string == "cancelled")
        #expect(end[3]?.string == "id")
        #expect(end[4] == .bool(true))
        // The ends the page had with its rows are not sent again.
        let endsSent = stream.received("ends").flatMap { $0["ends"]?.array ?? [] }.map { $0[0]?.int }
        #expect(endsSent == [sequence])
        #expect(stream.received("ends").last?["endCursor"]?.int == endCursor + 1)
    }
}
