import Foundation
import Katana
import KatanaBenchmarkSupport
import KatanaRecording

// What a recorded session costs on disk and in time: `count` updaters (default 100,000) on a
// state of about 1 KiB, recorded into a `RecordingFile` with the default snapshot interval (the
// whole state every 100 items, the changes between) and with an interval of 1 (the whole state
// on every line). For each: the file's size, the bytes per item, how long the store took to handle
// the burst and how long until the file's writer had written it all (`flush()` returned), both
// from the first dispatch; then how long `Recording(contentsOf:)` takes to read it back, with its
// entries checked against the store. Heap in use (glibc's count, above the session's start) is read
// when the store has handled the burst (mostly the items still waiting for the writer) and with the
// recording read back.
//
//   swift build -c release --product RecordingFileSize && .build/release/RecordingFileSize [count] [directory]
//
// The files go to a temporary folder that is removed at the end, or to `directory`, where they stay.
let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap { Int($0) } ?? 100_000
let keptDirectory = arguments.dropFirst().first.map { URL(fileURLWithPath: $0, isDirectory: true) }
let directory = keptDirectory
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("RecordingFileSize-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer {
    if keptDirectory == nil {
        try? FileManager.default.removeItem(at: directory)
    }
}

typealias SessionStore = Store<SessionState, EmptySideEffectDependencyContainer>

let stateEncoder = JSONEncoder()
stateEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
let stateBytes = try stateEncoder.encode(SessionState()).count
print("state: \(stateBytes) bytes JSON-encoded; \(count) updaters per session")

/// Seconds since `start`, printed with three decimals.
func seconds(since start: ContinuousClock.Instant) -> String {
    let elapsed = ContinuousClock.now - start
    let value = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return String(format: "%.3f s", value)
}

/// `bytes` in MiB, with two decimals.
func mebibytes(_ bytes: Int) -> String {
    String(format: "%.2f", Double(bytes) / 1_048_576)
}

/// Records one session into a file written every `snapshotInterval` items as a whole state, then
/// reads it back; prints the figures and stops the process if anything is missing.
func recordSession(snapshotInterval: Int) throws {
    let url = directory.appendingPathComponent("session-snapshot-\(snapshotInterval).jsonl")
    let file = try RecordingFile<SessionState>(writingTo: url, snapshotInterval: snapshotInterval)
    let store = SessionStore(interceptors: Interceptors { StoreRecorder(to: file) })

    ProcessMemory.trim()
    let heapBefore = ProcessMemory.heapInUseBytes() ?? 0
    let start = ContinuousClock.now
    var last: Promise<Void>?
    for step in 0 ..< count {
        last = dispatchSessionStep(step, to: store)
    }
    last?.settled("the session's last updater")
    let handled = seconds(since: start)
    let heapWhileWriting = (ProcessMemory.heapInUseBytes() ?? 0) - heapBefore
    file.flush()
    let written = seconds(since: start)
    file.close()
    check(file.droppedCount == 0, "the file's writer fell behind and dropped \(file.droppedCount) items")
    check(file.writeFailure == nil, "writing failed: \(file.writeFailure ?? "")")

    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    let readStart = ContinuousClock.now
    let recording = try Recording<SessionState>(contentsOf: url)
    let read = seconds(since: readStart)
    let heapWithRecording = (ProcessMemory.heapInUseBytes() ?? 0) - heapBefore
    check(recording.entries.count == count, "read \(recording.entries.count) entries, expected \(count)")
    check(recording.gaps.isEmpty, "the recording has gaps: \(recording.gaps)")
    let finalState = try JSONValue(encoding: store.state)
    check(recording.entries.last?.stateAfter == finalState, "the last entry's state is not the store's final state")

    let perItem = String(format: "%.1f", Double(size) / Double(count))
    print(
        "snapshotInterval \(snapshotInterval): \(size) bytes (\(mebibytes(size)) MiB), \(perItem) bytes per item; "
            + "store handled the burst in \(handled), writer done (flush returned) at \(written); "
            + "read back in \(read): \(recording.entries.count) entries; heap in use when the store had handled the burst "
            + "\(mebibytes(heapWhileWriting)) MiB, with the recording read back \(mebibytes(heapWithRecording)) MiB"
    )
}

try recordSession(snapshotInterval: 100)
try recordSession(snapshotInterval: 1)
