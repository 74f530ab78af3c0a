import Foundation

/// The service's configuration, read from JSON.
struct ServiceConfiguration: Codable, Equatable, Sendable {
    /// A name for the log.
    var name: String
    /// How much the service logs: "debug", "info", "warning" or "error".
    var logLevel: String
    /// How often the heartbeat timer fires.
    var heartbeatMilliseconds: Int

    /// The built-in configuration, used when no `--config` file is given. Its two revisions stand
    /// in for an operator editing the file: a reload switches to the next one.
    static let builtInRevisions: [String] = [
        #"{ "name": "katana-service-demo", "logLevel": "info", "heartbeatMilliseconds": 250 }"#,
        #"{ "name": "katana-service-demo", "logLevel": "debug", "heartbeatMilliseconds": 250 }"#,
    ]

    /// What went wrong while reading a configuration, as one line for the user.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Decodes and checks a configuration.
    static func decode(_ data: Data, source: String) throws -> ServiceConfiguration {
        let configuration: ServiceConfiguration
        do {
            configuration = try JSONDecoder().decode(ServiceConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw LoadError(description: "\(source) is not a valid configuration: \(error.summary)")
        }
        guard configuration.heartbeatMilliseconds > 0 else {
            throw LoadError(description: "\(source): heartbeatMilliseconds must be positive, got \(configuration.heartbeatMilliseconds)")
        }
        return configuration
    }

    /// Reads and decodes the file at `path`.
    static func load(path: String) throws -> ServiceConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LoadError(description: "cannot read configuration file '\(path)': \(error.localizedDescription)")
        }
        return try decode(data, source: "configuration file '\(path)'")
    }
}

private extension DecodingError {
    /// A one-line explanation, without the debug dump of the coding path.
    var summary: String {
        switch self {
        case .dataCorrupted(let context):
            return context.underlyingError.map { "malformed JSON (\($0.localizedDescription))" } ?? context.debugDescription
        case .keyNotFound(let key, _):
            return "missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' should be \(type)"
        case .valueNotFound(let type, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' should be a \(type), not null"
        @unknown default:
            return "unreadable (\(self))"
        }
    }
}
