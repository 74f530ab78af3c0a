import Logging

/// A log handler that escapes control characters (``TerminalText/escaped(_:)``) in each message,
/// its metadata and its error before handing it on, so that what a client sent cannot reach a
/// terminal raw through the server's log.
struct EscapingLogHandler: LogHandler {
    /// The handler the escaped events go to: the one the process's logging system makes.
    private var wrapped: any LogHandler

    init(wrapping handler: any LogHandler) {
        wrapped = handler
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.escaped(event.message.description))"
        event.metadata = event.metadata?.mapValues(Self.escaped)
        if let error = event.error {
            event.error = EscapedError(description: TerminalText.escaped(String(describing: error)))
        }
        wrapped.log(event: event)
    }

    private static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(TerminalText.escaped(text))
        case .stringConvertible(let convertible): .string(TerminalText.escaped(convertible.description))
        case .array(let values): .array(values.map(escaped))
        case .dictionary(let values): .dictionary(values.mapValues(escaped))
        }
    }

    /// An error whose description was escaped.
    struct EscapedError: Error, CustomStringConvertible {
        let description: String
    }
}
