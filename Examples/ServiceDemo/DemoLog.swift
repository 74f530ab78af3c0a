import Foundation

/// The demo's log: one timestamped line per event, on standard error.
enum DemoLog {
    private static let lock = NSLock()

    /// Writes `message` as one line: an ISO 8601 timestamp with milliseconds, then the message.
    static func write(_ message: String) {
        let line = "\(Date().formatted(.iso8601.time(includingFractionalSeconds: true))) \(message)\n"
        lock.withLock {
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
