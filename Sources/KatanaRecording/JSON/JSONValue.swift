import Foundation

/// A JSON document as a value: what a recording's states and items are encoded to, compared and
/// diffed as. Numbers keep their integer form when they have one, so an `Int` round-trips exactly;
/// an integer beyond `Int64`'s range is kept as a `Double`, which may round it.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits an `Int64`.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its keys unordered.
    case object([String: JSONValue])

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value under `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { fields[key] } else { nil }
    }

    /// The string, when this is one.
    var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number as an unsigned integer, when this is a non-negative integer.
    var unsignedValue: UInt64? {
        if case .integer(let value) = self, value >= 0 { UInt64(value) } else { nil }
    }
}

extension JSONValue {
    /// The JSON encoding of `value`, as `JSONEncoder` with its default strategies makes it.
    public init(encoding value: some Encodable) throws {
        self = try JSONValueEncoder.encode(value)
    }

    /// This JSON decoded as `type`.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }
}
