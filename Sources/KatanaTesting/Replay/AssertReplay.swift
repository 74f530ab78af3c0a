import Foundation
import Katana
import KatanaRecording

/// Replays `recording` into `store` (see ``Recording/replay(into:items:renaming:upToLine:timeout:)``)
/// and fails the running test, at the caller's line, at the first item after which the store's
/// state differs from the recorded one, with the diff of the two states; an item that cannot be
/// replayed fails it with the error. Works in XCTest and in Swift Testing. Returns the report
/// (nil when the replay could not run to its end).
///
/// ```swift
/// @Test func theRewriteKeepsTheBehaviour() throws {
///     let recording = try Recording<TodoState>(contentsOf: sessionURL)
///     assertReplay(recording, into: Store<TodoState, TodoDependencies>(), items: [AddTodo.self, ToggleTodo.self])
/// }
/// ```
@discardableResult
public func assertReplay<S: State & Codable>(
    _ recording: Recording<S>,
    into store: PartialStore<S>,
    items: [any ReplayableItem.Type],
    renaming: [String: any ReplayableItem.Type] = [:],
    upToLine: Int? = nil,
    timeout: Duration = .seconds(10),
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> ReplayReport<S>? {
    let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    do {
        let report = try recording.replay(into: store, items: items, renaming: renaming, upToLine: upToLine, timeout: timeout)
        if let difference = report.difference {
            reporter.report(TestFailure("Replay of \(recording.source): \(difference)", location: location))
        }
        return report
    } catch {
        reporter.report(TestFailure("Replay of \(recording.source) failed: \(error)", location: location))
        return nil
    }
}
