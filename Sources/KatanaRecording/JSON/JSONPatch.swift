/// The changes that turn one JSON value into another: what a recording writes between two full
/// snapshots of the state, so that an item that changes one field costs a line of that field.
///
/// Objects are compared key by key and arrays index by index, down to the values that differ; an
/// array that got shorter is cut to its new length.
struct JSONPatch: Sendable, Equatable, Codable {
    /// One change, at a path of object keys (strings) and array indices (integers).
    struct Operation: Sendable, Equatable, Codable {
        /// Where: keys and indices from the root.
        var path: [JSONValue]
        /// The new value there; nil when the key is removed or the array cut.
        var value: JSONValue?
        /// For an array cut to a new length, that length.
        var length: Int?
        /// Whether the key is removed.
        var removed: Bool?

        enum CodingKeys: String, CodingKey {
            case path = "p", value = "v", length = "n", removed = "d"
        }
    }

    var operations: [Operation]

    /// The changes from `old` to `new` (none when they are equal).
    init(from old: JSONValue, to new: JSONValue) {
        var operations: [Operation] = []
        Self.collect(old, new, at: [], into: &operations)
        self.operations = operations
    }

    init(operations: [Operation]) {
        self.operations = operations
    }

    init(from decoder: any Decoder) throws {
        operations = try [Operation](from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try operations.encode(to: encoder)
    }

    private static func collect(_ old: JSONValue, _ new: JSONValue, at path: [JSONValue], into operations: inout [Operation]) {
        guard old != new else { return }
        switch (old, new) {
        case let (.object(oldFields), .object(newFields)):
            for key in oldFields.keys.sorted() where newFields[key] == nil {
                operations.append(Operation(path: path + [.string(key)], removed: true))
            }
            for key in newFields.keys.sorted() {
                guard let newValue = newFields[key] else { continue }
                if let oldValue = oldFields[key] {
                    collect(oldValue, newValue, at: path + [.string(key)], into: &operations)
                } else {
                    operations.append(Operation(path: path + [.string(key)], value: newValue))
                }
            }
        case let (.array(oldElements), .array(newElements)):
            if newElements.count < oldElements.count {
                operations.append(Operation(path: path, length: newElements.count))
            }
            for index in newElements.indices {
                let element = newElements[index]
                if index < oldElements.count {
                    collect(oldElements[index], element, at: path + [.integer(Int64(index))], into: &operations)
                } else {
                    operations.append(Operation(path: path + [.integer(Int64(index))], value: element))
                }
            }
        default:
            operations.append(Operation(path: path, value: new))
        }
    }

    /// `value` with the changes made; throws ``Mismatch`` when a path does not fit the value (a
    /// patch applied to a state it was not made from).
    func applied(to value: JSONValue) throws -> JSONValue {
        var result = value
        for operation in operations {
            try Self.apply(operation, at: operation.path[...], to: &result)
        }
        return result
    }

    /// Makes the changes to `value` where it is (what ``applied(to:)`` does to a copy); throws
    /// ``Mismatch``, leaving `value` partly changed, when a path does not fit it.
    func apply(to value: inout JSONValue) throws {
        for operation in operations {
            try Self.apply(operation, at: operation.path[...], to: &value)
        }
    }

    /// A patch whose path does not fit the value it is applied to.
    struct Mismatch: Error, CustomStringConvertible {
        let path: [JSONValue]
        var description: String {
            "the change at \(path.map(Self.render).joined(separator: ".")) does not fit the state it follows"
        }

        private static func render(_ component: JSONValue) -> String {
            switch component {
            case .string(let key): key
            case .integer(let index): "[\(index)]"
            default: "?"
            }
        }
    }

    private static func apply(_ operation: Operation, at path: ArraySlice<JSONValue>, to value: inout JSONValue) throws {
        guard let first = path.first else {
            if let length = operation.length, case .array(let elements) = value, length <= elements.count {
                value = .array(Array(elements.prefix(length)))
            } else if let newValue = operation.value {
                value = newValue
            } else {
                throw Mismatch(path: operation.path)
            }
            return
        }
        let rest = path.dropFirst()
        switch (first, value) {
        case (.string(let key), .object(var fields)):
            value = .null  // lets `fields` be changed in place instead of copied
            if rest.isEmpty, operation.removed == true {
                fields[key] = nil
            } else if rest.isEmpty, operation.length == nil, let newValue = operation.value {
                fields[key] = newValue
            } else {
                guard var child = fields[key] else { throw Mismatch(path: operation.path) }
                try apply(operation, at: rest, to: &child)
                fields[key] = child
            }
            value = .object(fields)
        case (.integer(let index), .array(var elements)):
            value = .null
            let position = Int(index)
            if rest.isEmpty, operation.length == nil, let newValue = operation.value, position == elements.count {
                elements.append(newValue)
            } else {
                guard position >= 0, position < elements.count else { throw Mismatch(path: operation.path) }
                try apply(operation, at: rest, to: &elements[position])
            }
            value = .array(elements)
        default:
            throw Mismatch(path: operation.path)
        }
    }
}
