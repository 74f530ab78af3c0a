import Foundation
import HummingbirdWSClient
@testable import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Logging

/// A page's live stream (`/api/live`), read in a task of its own: every message, decoded, as it
/// comes. Stop it when done.
final class LiveStreamReader: Sendable {
    /// The messages received so far, in order; each one wakes the waits on the list.
    let messages: LockedList<JSONValue>
    private let task: Task<Void, any Error>

    /// Connects to `url` (`ws://…/api/live?after=…`) and reads until stopped or closed.
    init(url: String) {
        let messages = LockedList<JSONValue>()
        self.messages = messages
        task = Task {
            try await WebSocketClient.connect(url: url, logger: Logger(label: "test")) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 24) {
                    guard case .text(let text) = message else { continue }
                    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                    messages.append(value)
                }
            }
        }
    }

    /// The messages of `type` ("items", "ends", "gap") received so far.
    func received(_ type: String) -> [JSONValue] {
        Self.messages(type, in: messages.all)
    }

    /// The messages of `type` among `messages`.
    static func messages(_ type: String, in messages: [JSONValue]) -> [JSONValue] {
        messages.filter { $0["type"]?.string == type }
    }

    func stop() {
        task.cancel()
    }
}
