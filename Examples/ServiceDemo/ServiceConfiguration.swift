import Foundation

/// The service's configuration, read from a JSON object such as
/// `{ "name": "demo", "logLevel": "info", "heartbeatMilliseconds": 250 }`.
struct ServiceConfiguration: Equatable, Sendable, Codable {
    /// A name for the log.
    var name: String
    /// How much the service logs.
    var logLevel: LogLevel
    /// How often the heartbeat timer fires, within ``heartbeatRange``.
    var heartbeatMilliseconds: Int

    /// The heartbeats accepted: from 10 ms (faster would be mostly timer overhead) to one hour
    /// (slower looks like a service that never ticks).
    static let heartbeatRange = 10...3_600_000

    /// An example of the JSON, for messages and the usage text.
    static let example = #"{ "name": "demo", "logLevel": "info", "heartbeatMilliseconds": 250 }"#

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

    /// The JSON as written, before its values are checked.
    private struct Fields: Decodable {
        var name: String
        var logLevel: String
        var heartbeatMilliseconds: JSONNumber
    }

    /// A JSON number as written: a whole number that fits in an `Int`, or any other (read as a
    /// `Double`), so that a value out of range gets a message naming it rather than Foundation's
    /// "not valid JSON".
    private enum JSONNumber: Decodable, CustomStringConvertible {
        case whole(Int)
        case other(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let whole = try? container.decode(Int.self) {
                self = .whole(whole)
            } else {
                self = .other(try container.decode(Double.self))
            }
        }

        var description: String {
            switch self {
            case .whole(let value): "\(value)"
            case .other(let value): "\(value)"
            }
        }
    }

    /// Decodes and checks a configuration; `source` names it in errors.
    static func decode(_ data: Data, source: String) throws -> ServiceConfiguration {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: data)
        } catch let error as DecodingError {
            throw LoadError(description: "\(source) is not a valid configuration: \(error.summary(of: data))")
        }
        guard let logLevel = LogLevel(rawValue: fields.logLevel) else {
            throw LoadError(description: "\(source): logLevel must be \(LogLevel.names), got '\(fields.logLevel)'")
        }
        guard case .whole(let heartbeat) = fields.heartbeatMilliseconds, heartbeatRange.contains(heartbeat) else {
            throw LoadError(
                description: "\(source): heartbeatMilliseconds must be a whole number from \(heartbeatRange.lowerBound) (10 ms) "
                    + "to \(heartbeatRange.upperBound) (1 hour), got \(fields.heartbeatMilliseconds)"
            )
        }
        return ServiceConfiguration(name: fields.name, logLevel: logLevel, heartbeatMilliseconds: heartbeat)
    }

    /// Reads and decodes the file at `path`.
    static func load(path: String) throws -> ServiceConfiguration {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw LoadError(description: "configuration file '\(path)' is a directory; pass the path of a JSON file such as \(example)")
        }
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
    func summary(of data: Data) -> String {
        switch self {
        case .dataCorrupted(let context):
            return context.underlyingError.map { "malformed JSON (\($0.localizedDescription))" } ?? context.debugDescription
        case .keyNotFound(let key, _):
            return "missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty {
                return "expected a JSON object such as \(ServiceConfiguration.example), got \(Self.kind(of: data))"
            }
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' should be \(Self.jsonName(of: type))"
        case .valueNotFound(let type, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' should be \(Self.jsonName(of: type)), not null"
        @unknown default:
            return "unreadable (\(self))"
        }
    }

    /// How JSON calls values of `type`.
    static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        default: "\(type)"
        }
    }

    /// What kind of JSON value `data` holds at its top level ("an array", "a string", ...).
    static func kind(of data: Data) -> String {
        let value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        switch value {
        case is [Any]: return "an array"
        case is String: return "a string"
        case is NSNull, nil: return "null"
        case let number as NSNumber:
            // JSON booleans come back as NSNumber too; their JSON spelling tells them apart.
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text == "true" || text == "false" ? "a boolean" : "a number (\(number))"
        default: return "a JSON value that is not an object"
        }
    }
}
