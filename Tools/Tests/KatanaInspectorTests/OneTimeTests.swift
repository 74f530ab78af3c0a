import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

/// One item, one time: the API sends a row's time and its detail's alike, in whole milliseconds
/// rounded to the nearest, so that the page cannot show two.
@Suite struct OneTimeTests {
    @Test func aRowAndItsDetailGiveTheSameMillisecond() async throws {
        // x.8635 s is 863.5 ms: rounded in one place and cut short in another, it showed as two times.
        var recording = HandWrittenRecording()
        recording.item(1, sequence: 1, time: 1_795_750_076.8635)
        let file = recording.file()
        defer { try? FileManager.default.removeItem(at: file) }
        try await ServedInspector.withFile(file.path) { server in
            let row = try #require(try await server.json("api/items").value["rows"]?[0])
            let detail = try await server.json("api/items/1").value
            #expect(row[2]?.int == 1_795_750_076_864)
            #expect(detail["time"]?.int == row[2]?.int)
        }
    }
}
