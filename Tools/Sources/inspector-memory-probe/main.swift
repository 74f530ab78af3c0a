import Foundation
import Katana
import KatanaInspector
import KatanaRecording

// Test-only (Tools/Tests/KatanaInspectorTests/LiveMemoryBoundTests.swift): a live inspector beside
// a store whose state grows to 8 MB, alone in its process so that its resident memory is its own.
// It prints what it measured on one line, then the page's address, and serves until it is killed.

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

/// The process's resident memory (`VmRSS` in /proc/self/status), in bytes; nil where there is none.
func residentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.dropFirst("VmRSS:".count).filter(\.isNumber)).map { $0 * 1_024 }
    }
    return nil
}

let arguments = CommandLine.arguments.dropFirst()
let bound = arguments.first.flatMap { Int($0) } ?? 16 << 20
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 2_500

let residentBefore = residentBytes()
// Room for the 25 items that wait at most (each counted as the whole 8 MB state), so that none is
// dropped: what is measured is the history.
let inspector = LiveInspector<GrowingState>(
    configuration: InspectorConfiguration(port: 0, liveHistoryByteLimit: bound, liveBufferByteLimit: 1 << 30)
)
let store = Store<GrowingState, EmptySideEffectDependencyContainer>(interceptors: Interceptors { StoreRecorder(to: inspector) })
let url = try await inspector.serving()

var largest = 0
for number in 1 ... count {
    try await store.dispatch(AddLine(number: number)).value
    if number % 25 == 0 {
        // Keeps the store at about the inspector's pace.
        inspector.flush()
        largest = max(largest, inspector.historyByteCount)
    }
}
inspector.flush()
// -1 where /proc is missing.
var growth = -1
if let residentBefore, let residentAfter = residentBytes() {
    growth = residentAfter - residentBefore
}
let report = "dropped \(inspector.droppedCount) largest \(largest) last \(inspector.lastPosition) growth \(growth)\nserving \(url.absoluteString)\n"
FileHandle.standardOutput.write(Data(report.utf8))
while true {
    try await Task.sleep(for: .seconds(60))
}
