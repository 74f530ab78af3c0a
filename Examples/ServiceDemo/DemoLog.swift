import Foundation

/// The demo's log: one timestamped line per event, on standard error. Lines below the configured
/// level are dropped; the start line, a change of the level and the shutdown summary
/// (``always(_:)``) are written at any level.
enum DemoLog {
    /// Serialises the writes, so lines never interleave, and guards `threshold`.
    private static let lock = NSLock()
    /// The lowest level written. Only read or written while holding `lock`.
    nonisolated(unsafe) private static var threshold = LogLevel.beforeConfiguration

    /// From now on, writes only lines at `level` or above.
    static func apply(_ level: LogLevel) {
        lock.withLock { threshold = level }
    }

    static func debug(_ message: String) {
        write(message, at: .debug)
    }

    static func info(_ message: String) {
        write(message, at: .info)
    }

    static func warning(_ message: String) {
        write(message, at: .warning)
    }

    static func error(_ message: String) {
        write(message, at: .error)
    }

    /// Writes `message` whatever the level: for the start line, a change of the level and the summary.
    static func always(_ message: String) {
        write(message, at: nil)
    }

    /// Writes `message` as one line, an ISO 8601 time with milliseconds, then the message, unless
    /// `level` is below the threshold (nil: always written).
    private static func write(_ message: String, at level: LogLevel?) {
        let line = "\(Date().formatted(.iso8601.time(includingFractionalSeconds: true))) \(message)\n"
        lock.withLock {
            if let level, level < threshold { return }
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
