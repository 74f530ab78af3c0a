import Foundation
@testable import InspectorPageFixture
import KatanaRecording

/// The todo session of the page fixture, recorded to a file of its own.
enum RecordedSession {
    /// Records the session (the scripted items, then `extra` renames) to a new file and returns its URL.
    static func record(extra: Int = 20, snapshotInterval: Int = 100) async throws -> URL {
        let url = temporaryFile("session")
        let file = try RecordingFile<TodoState>(writingTo: url, snapshotInterval: snapshotInterval)
        try await TodoApp.playSession(TodoApp.session(recordingInto: file), extra: extra)
        file.close()
        return url
    }
}
