import Foundation

/// Encodes an `Encodable` value straight into a ``JSONValue``, without writing JSON text and
/// reading it back: what a recording file's writer does with every state and item (docs/PERFORMANCE.md,
/// "Recording"). It gives what `JSONEncoder` with its default strategies gives: `Data` as base64,
/// `Date` as seconds since 2001, `URL` as its string, `Decimal` as a number, whole numbers without
/// a fraction, and an error for a number that is not finite.
enum JSONValueEncoder {
    /// The JSON of `value`.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        try Primitive.value(value, at: []).finished
    }
}

/// A value being built: a container fills it as the encoder goes.
private final class Node {
    var value: JSONValue = .object([:])
    var fields: [String: Slot]?
    var elements: [Slot]?

    /// The finished value, with the containers' contents.
    var finished: JSONValue {
        if let fields {
            return .object(fields.mapValues(\.finished))
        }
        if let elements {
            return .array(elements.map(\.finished))
        }
        return value
    }
}

/// What a container holds at a key or index: a primitive as it is (no node to allocate), or a
/// nested value being built.
private enum Slot {
    case value(JSONValue)
    case node(Node)

    var finished: JSONValue {
        switch self {
        case .value(let value): value
        case .node(let node): node.finished
        }
    }
}

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.fields == nil {
            node.fields = [:]
        }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil {
            node.elements = []
        }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

/// How every container turns a primitive into a JSON value.
private enum Primitive {
    static func value(_ value: Double, at path: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(value) is not a JSON number"))
        }
        // As JSONEncoder writes them, a whole number is written without a fraction.
        if value.rounded() == value, abs(value) < 9e15 {
            return .integer(Int64(value))
        }
        return .number(value)
    }

    static func value<T: BinaryInteger>(_ value: T) -> JSONValue {
        if let exact = Int64(exactly: value) {
            return .integer(exact)
        }
        return .number(Double(value))
    }

    /// A nested value encoded with its own `encode(to:)` (or as JSONEncoder writes the Foundation
    /// types it treats apart), at `path`.
    static func value(_ value: some Encodable, at path: [any CodingKey]) throws -> Node {
        let node = Node()
        node.value = .null
        switch value {
        case let json as JSONValue:
            node.value = json  // already JSON: taken as it is, not encoded again
        case let data as Data:
            node.value = .string(data.base64EncodedString())
        case let url as URL:
            node.value = .string(url.absoluteString)
        case let decimal as Decimal:
            node.value = .number(NSDecimalNumber(decimal: decimal).doubleValue)
        default:
            try value.encode(to: NodeEncoder(node: node, codingPath: path))
        }
        return node
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, for key: Key) {
        node.fields?[key.stringValue] = .value(value)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try Primitive.value(value, at: codingPath + [key]), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try Primitive.value(Double(value), at: codingPath + [key]), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(Primitive.value(value), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(Primitive.value(value), for: key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let field = try Primitive.value(value, at: codingPath + [key])
        node.fields?[key.stringValue] = .node(field)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        child.fields = [:]
        node.fields?[key.stringValue] = .node(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Node()
        child.elements = []
        node.fields?[key.stringValue] = .node(child)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        guard let key = Key(stringValue: "super") else {
            // A key type without "super": the superclass encodes into this same object.
            return NodeEncoder(node: node, codingPath: codingPath)
        }
        return superEncoder(forKey: key)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = Node()
        child.value = .null
        node.fields?[key.stringValue] = .node(child)
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.elements?.count ?? 0 }

    private func append(_ value: JSONValue) {
        node.elements?.append(.value(value))
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try Primitive.value(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { append(try Primitive.value(Double(value), at: codingPath)) }
    mutating func encode(_ value: Int) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(Primitive.value(value)) }
    mutating func encode(_ value: UInt8) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { append(Primitive.value(value)) }

    mutating func encode(_ value: some Encodable) throws {
        // Encoded before the append: the append's access to `elements` must not overlap the read
        // of `count`, or anything the nested value does.
        let element = try Primitive.value(value, at: codingPath + [IndexKey(intValue: count)])
        node.elements?.append(.node(element))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = Node()
        child.fields = [:]
        let path = codingPath + [IndexKey(intValue: count)]
        node.elements?.append(.node(child))
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Node()
        child.elements = []
        let path = codingPath + [IndexKey(intValue: count)]
        node.elements?.append(.node(child))
        return UnkeyedNodeContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = Node()
        child.value = .null
        let path = codingPath + [IndexKey(intValue: count)]
        node.elements?.append(.node(child))
        return NodeEncoder(node: child, codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue) {
        node.fields = nil
        node.elements = nil
        node.value = value
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try Primitive.value(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try Primitive.value(Double(value), at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(Primitive.value(value)) }
    mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { set(Primitive.value(value)) }

    mutating func encode(_ value: some Encodable) throws {
        let encoded = try Primitive.value(value, at: codingPath)
        node.fields = encoded.fields
        node.elements = encoded.elements
        node.value = encoded.value
    }
}
