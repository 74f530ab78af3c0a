import Foundation
import Katana
import KatanaInspector
import KatanaRecording

// The program the inspector's page tests run (Tools/PageTests):
//   inspector-page-fixture record <path> [--extra N]   writes the todo session's recording
//   inspector-page-fixture live [--port N] [--token T] [--limit N]
//       serves a live store (keeping at most N items; the inspector keeps 128 at least); reads
//       `add <title>`, `add-many <count> <title>`, `refresh` (a side effect that runs until
//       `cancel-refresh`) and `quit`, and says `dispatched <last position>` once what it
//       dispatched is on the page's side (`ended` once the refreshes' ends are)
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("inspector-page-fixture: \(message)\n".utf8))
    exit(2)
}

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

switch arguments.first {
case "record":
    guard arguments.count >= 2 else { fail("record needs the path to write") }
    let extra = option("--extra").map { Int($0) ?? -1 } ?? 300
    guard extra >= 0 else { fail("--extra takes a whole number") }
    let file = try RecordingFile<TodoState>(writingTo: URL(fileURLWithPath: arguments[1]))
    try await TodoApp.playSession(TodoApp.session(recordingInto: file), extra: extra)
    file.close()
    say("inspector-page-fixture: recorded \(TodoApp.scriptedItems + extra) items to \(arguments[1])")
case "live":
    let port = option("--port").map { Int($0) ?? -1 } ?? 0
    let limit = option("--limit").map { Int($0) ?? 0 } ?? InspectorConfiguration().liveItemLimit
    guard limit > 0 else { fail("--limit takes a whole number above 0") }
    let configuration = InspectorConfiguration(port: port, token: option("--token"), liveItemLimit: limit)
    let inspector = LiveInspector<TodoState>(configuration: configuration)
    let session = TodoApp.session(recordingInto: inspector)
    let store = session.store
    try await TodoApp.playSession(session, extra: 0)
    inspector.flush()
    let url = try await inspector.serving()
    say("inspector-page-fixture: live at \(url.absoluteString)")
    while let line = readLine() {
        if line == "quit" { break }
        if line.hasPrefix("add ") {
            try await store.dispatch(AddTodo(title: String(line.dropFirst(4)))).value
        } else if line.hasPrefix("add-many ") {
            // add-many <count> <title>: count items titled "<title> 1" to "<title> <count>".
            let words = line.dropFirst(9).split(separator: " ", maxSplits: 1)
            guard words.count == 2, let count = Int(words[0]), count > 0 else {
                say("inspector-page-fixture: add-many needs a count above 0 and a title")
                continue
            }
            var last: Promise<Void>?
            for number in 1 ... count {
                last = store.dispatch(AddTodo(title: "\(words[1]) \(number)"))
            }
            try await last?.value
        } else if line == "refresh" {
            let before = session.recorded.itemCount
            _ = store.dispatch(RefreshTodos())
            try await session.recorded.wait("the refresh to be recorded", items: before + 1)
        } else if line == "cancel-refresh" {
            _ = store.cancelSideEffects(id: "refresh")
            try await session.recorded.wait("the refreshes to end", items: 0, allEnded: true)
            inspector.flush()
            say("ended")
            continue
        } else {
            say("inspector-page-fixture: unknown command '\(line)' (add <title>, add-many <count> <title>, refresh, cancel-refresh, quit)")
            continue
        }
        inspector.flush()
        say("dispatched \(inspector.lastPosition)")
    }
    inspector.stop()
default:
    fail("usage: inspector-page-fixture record <path> [--extra N] | live [--port N] [--token T] [--limit N]")
}
