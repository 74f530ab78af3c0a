import Foundation
@testable import InspectorPageFixture
import KatanaRecording

/// The todo session of the page fixture, recorded to a file of its own.
enum RecordedSession {
    /// Records the session (items 1 to 8, then `extra` renames) to a new file and returns its URL.
    static func record(extra: Int = 20, snapshotInterval: Int = 100) async throws -> URL {
        let url = temporaryFile("session")
        let file = try RecordingFile<TodoState>(writingTo: url, snapshotInterval: snapshotInterval)
        let store = TodoApp.store(recordingInto: file)
        try await TodoApp.playSession(on: store, extra: extra)
        file.close()
        return url
    }
}
