import Foundation
import Katana
@testable import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Testing

/// A live inspector's memory bounded in bytes: a store whose state grows to megabytes keeps the
/// history within `liveHistoryByteLimit`, the oldest items let go, the newest ones' states right.
@Suite struct LiveMemoryBoundTests {
    /// A list of lines, about 3.2 KB longer after each item: 8 MB after 2,500.
    struct GrowingState: State, Codable, Equatable {
        var lines: [String] = []
    }

    /// Adds line `number`.
    struct AddLine: StateUpdater, Codable {
        var number: Int
        func updateState(_ state: inout GrowingState) {
            state.lines.append("\(number) " + String(repeating: "x", count: 3_200))
        }
    }

    @Test func aLiveInspectorWhoseStateGrowsToMegabytesKeepsItsHistoryWithinItsByteBound() async throws {
        let bound = 16 << 20
        let residentBefore = residentBytes()
        // Room for the 25 items that wait at most (each counted as the whole 8 MB state), so that
        // none is dropped: this test is about the history.
        let configuration = InspectorConfiguration(port: 0, liveHistoryByteLimit: bound, liveBufferByteLimit: 1 << 30)
        let inspector = LiveInspector<GrowingState>(configuration: configuration)
        defer { inspector.stop() }
        let store = Store<GrowingState, EmptySideEffectDependencyContainer>(interceptors: Interceptors { StoreRecorder(to: inspector) })
        let url = try await withTimeout("the live inspector to listen") { try await inspector.serving() }

        let count = 2_500
        var largestCount = 0
        for number in 1 ... count {
            try await store.dispatch(AddLine(number: number)).settled()
            if number % 25 == 0 {
                // Keeps the store at about the inspector's pace.
                try await poll("item \(number) on the page's side", timeout: .seconds(120)) {
                    inspector.lastPosition == UInt64(number)
                }
                largestCount = max(largestCount, inspector.historyByteCount)
            }
        }
        #expect(inspector.droppedCount == 0)
        #expect(largestCount <= bound, "the history counted \(largestCount) bytes, over its bound of \(bound)")
        #expect(inspector.lastPosition == UInt64(count))
        // What the process holds beside the history: the state as the store, the encoder and the
        // reader have it (8 MB each at most), the lines in flight, what the allocator keeps of
        // what was freed, and what the other tests running meanwhile take. Skipped where /proc is
        // missing.
        if let residentBefore, let residentAfter = residentBytes() {
            let allowance = 160 << 20
            #expect(residentAfter - residentBefore <= bound + allowance, "resident memory grew by \(residentAfter - residentBefore) bytes")
        }

        let summary = try await json(url, "api/summary")
        let first = try #require(summary["firstPosition"]?.int)
        #expect(first > 1, "the oldest items were let go")
        // The newest item's state, rebuilt from the whole states kept and the changes since, is the store's.
        let newest = try await json(url, "api/items/\(count)")
        #expect(newest["stateAfter"] == (try JSONValue(encoding: store.state)))
        // So is the oldest kept one's: item p added line p.
        let oldest = try await json(url, "api/items/\(first)")
        #expect(oldest["stateAfter"]?["lines"]?.array?.count == first)
        #expect(oldest["changes"]?[0]?["after"]?.string?.hasPrefix("\(first) ") == true)
    }

    /// The JSON answer to `GET path` on the inspector at `url`.
    private func json(_ url: URL, _ path: String) async throws -> JSONValue {
        let answer = try await ServedInspector.get(try #require(URL(string: path, relativeTo: url)))
        return try JSONDecoder().decode(JSONValue.self, from: answer.body)
    }

    /// The process's resident memory (`VmRSS` in /proc/self/status), in bytes; nil where there is none.
    private func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst("VmRSS:".count).filter(\.isNumber)).map { $0 * 1_024 }
        }
        return nil
    }
}
