import Foundation
import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Testing

/// A live inspector's memory bounded in bytes: a store whose state grows to megabytes keeps the
/// history within `liveHistoryByteLimit`, the oldest items let go, the newest ones' states right.
///
/// The store and the inspector run in a process of their own (`inspector-memory-probe`), so that
/// the resident memory measured is theirs and not that of the tests running beside this one.
@Suite struct LiveMemoryBoundTests {
    @Test func aLiveInspectorWhoseStateGrowsToMegabytesKeepsItsHistoryWithinItsByteBound() async throws {
        let bound = 16 << 20
        let count = 2_500
        let probe = try ChildProgram.start(try ChildProgram.built("inspector-memory-probe"), ["\(bound)", "\(count)"])
        defer { probe.stop() }
        try await probe.untilItPrints("serving ", "the probe to record \(count) items", timeout: .seconds(300))

        let measured = Measured(probe.printed)
        #expect(measured["dropped"] == 0)
        #expect(measured["last"] == count)
        let largest = try #require(measured["largest"])
        #expect(largest <= bound, "the history counted \(largest) bytes, over its bound of \(bound)")
        // What the process holds beside the history: the state as the store, the encoder and the
        // reader have it (8 MB each at most), the lines in flight, and what the allocator keeps of
        // what was freed. -1 where /proc is missing.
        let growth = try #require(measured["growth"])
        if growth >= 0 {
            let allowance = 96 << 20
            #expect(growth <= bound + allowance, "resident memory grew by \(growth) bytes")
        }

        let url = try #require(measured.url)
        let summary = try await json(url, "api/summary")
        let first = try #require(summary["firstPosition"]?.int)
        #expect(first > 1, "the oldest items were let go")
        // The newest item's state, rebuilt from the whole states kept and the changes since, holds
        // every line; the oldest kept one's too: item p added line p.
        let newest = try await json(url, "api/items/\(count)")
        let lines = try #require(newest["stateAfter"]?["lines"]?.array)
        #expect(lines.count == count)
        #expect(lines.last?.string == "\(count) " + String(repeating: "x", count: 3_200))
        let oldest = try await json(url, "api/items/\(first)")
        #expect(oldest["stateAfter"]?["lines"]?.array?.count == first)
        #expect(oldest["changes"]?[0]?["after"]?.string?.hasPrefix("\(first) ") == true)
    }

    /// The probe's line `dropped D largest L last P growth G`, then `serving URL`, read.
    private struct Measured {
        let values: [String: Int]
        let url: URL?

        init(_ printed: String) {
            var values: [String: Int] = [:]
            var url: URL?
            for line in printed.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.first == "serving", words.count == 2 {
                    url = URL(string: String(words[1]))
                } else {
                    for index in stride(from: 0, to: words.count - 1, by: 2) {
                        values[String(words[index])] = Int(words[index + 1])
                    }
                }
            }
            self.values = values
            self.url = url
        }

        subscript(name: String) -> Int? {
            values[name]
        }
    }

    /// The JSON answer to `GET path` on the inspector at `url`.
    private func json(_ url: URL, _ path: String) async throws -> JSONValue {
        let answer = try await ServedInspector.get(try #require(URL(string: path, relativeTo: url)))
        return try JSONDecoder().decode(JSONValue.self, from: answer.body)
    }
}
