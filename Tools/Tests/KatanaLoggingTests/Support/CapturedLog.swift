import BridgeTestSupport
import Foundation
import Katana
import KatanaLogging
import KatanaTestSupport
import Logging

/// The events a test's logger received, in order: the log handler of the tests, given to
/// `Logger(label:factory:)` (nothing is bootstrapped, so tests do not share a log).
final class CapturedLog: Sendable {
    private let events = LockedList<LogEvent>()

    /// A logger whose lines come here, keeping those at `level` or above, with what
    /// `metadataProvider` adds when it is given.
    func logger(level: Logger.Level = .trace, metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
        // The provider goes to the handler, as the factory form of Logger(label:factory:) does
        // with the bootstrapped one.
        var logger = Logger(label: "katana.logging.tests") { _ in CapturingHandler(log: self, metadataProvider: metadataProvider) }
        logger.logLevel = level
        return logger
    }

    /// Every event so far.
    var records: [LogEvent] {
        events.all
    }

    /// The events about items of type `type`.
    func records(about type: any Dispatchable.Type) -> [LogEvent] {
        let name = String(reflecting: type)
        return records.filter { $0.text(StoreLogger.MetadataKey.type) == name }
    }

    fileprivate func append(_ event: LogEvent) {
        events.append(event)
    }
}

/// A log handler that hands every event to a ``CapturedLog``.
private struct CapturingHandler: LogHandler {
    let log: CapturedLog
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    /// Read when an event is logged, on the thread that logs it, as swift-log's handlers do.
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            event.metadata = provided.merging(event.metadata ?? [:]) { _, line in line }
        }
        log.append(event)
    }
}

extension LogEvent {
    /// The string value of the metadata entry `key`; nil when there is none, or it is not a string.
    func text(_ key: String) -> String? {
        guard case .string(let value)? = metadata?[key] else { return nil }
        return value
    }

    /// The metadata keys present, sorted.
    var keys: [String] {
        (metadata ?? [:]).keys.sorted()
    }
}
