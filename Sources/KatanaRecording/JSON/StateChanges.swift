/// What one item changed in an encoded state: the fields set, added and removed, each at a path of
/// object keys and array indices. A recording keeps these between whole states.
public struct StateChanges: Sendable, Equatable {
    let patch: JSONPatch

    init(_ patch: JSONPatch) {
        self.patch = patch
    }

    /// The changes that turn `old` into `new` (none when they are equal).
    public init(from old: JSONValue, to new: JSONValue) {
        patch = JSONPatch(from: old, to: new)
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        patch.operations.isEmpty
    }

    /// `state` with the changes made: `state` must be the state they were made from. Throws when a
    /// change's path does not fit it.
    public func applied(to state: JSONValue) throws -> JSONValue {
        try patch.applied(to: state)
    }

    /// Makes the changes to `state` where it is: a state that is not shared with another value is
    /// changed without copying the parts the changes do not touch, so that a tool rebuilding a state
    /// through many items pays for what they changed, not for the state's size each time. Throws,
    /// leaving `state` partly changed, when a change's path does not fit it.
    public func apply(to state: inout JSONValue) throws {
        try patch.apply(to: &state)
    }

    /// About how many bytes of memory the changes take: their paths and new values (see
    /// ``JSONValue/estimatedByteCount``).
    public var estimatedByteCount: Int {
        patch.operations.reduce(JSONValue.allocation(32 + patch.operations.count * MemoryLayout<JSONPatch.Operation>.stride)) { total, operation in
            let path = operation.path.reduce(JSONValue.allocation(32 + operation.path.count * MemoryLayout<JSONValue>.stride)) {
                $0 + $1.estimatedByteCount
            }
            return total + path + (operation.value?.estimatedByteCount ?? 0)
        }
    }

    /// The changes one by one, each with the value before it (read from `before`, the state they
    /// were made from) and after it: what a tool shows as the item's diff. An array cut shorter is
    /// one removal per element cut.
    public func described(from before: JSONValue) -> [StateChange] {
        var described: [StateChange] = []
        for operation in patch.operations {
            let path = operation.path.compactMap(StateChange.PathComponent.init)
            let old = Self.value(at: operation.path[...], in: before)
            if let length = operation.length {
                guard case .array(let elements)? = old else { continue }
                for index in length ..< max(length, elements.count) {
                    described.append(StateChange(path: path + [.index(index)], before: elements[index], after: nil))
                }
            } else if operation.removed == true {
                described.append(StateChange(path: path, before: old, after: nil))
            } else {
                described.append(StateChange(path: path, before: old, after: operation.value))
            }
        }
        return described
    }

    private static func value(at path: ArraySlice<JSONValue>, in value: JSONValue) -> JSONValue? {
        guard let first = path.first else { return value }
        switch (first, value) {
        case (.string(let key), .object(let fields)):
            return fields[key].flatMap { Self.value(at: path.dropFirst(), in: $0) }
        case (.integer(let index), .array(let elements)):
            guard index >= 0, index < elements.count else { return nil }
            return Self.value(at: path.dropFirst(), in: elements[Int(index)])
        default:
            return nil
        }
    }
}

/// One field an item changed: where, and its value before and after.
public struct StateChange: Sendable, Hashable {
    /// One step of a path: an object's key or an array's index.
    public enum PathComponent: Sendable, Hashable, CustomStringConvertible {
        /// An object's key.
        case key(String)
        /// An array's index, from 0.
        case index(Int)

        init?(_ component: JSONValue) {
            switch component {
            case .string(let key): self = .key(key)
            case .integer(let index): self = .index(Int(index))
            default: return nil
            }
        }

        /// The key, or the index in brackets.
        public var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): "[\(index)]"
            }
        }
    }

    /// Where, from the state's root.
    public let path: [PathComponent]
    /// The value before; nil when the field was added.
    public let before: JSONValue?
    /// The value after; nil when the field was removed.
    public let after: JSONValue?
}
