import Foundation

/// How one value is drawn: on a single line, or as a container with an opening line, one
/// child per line (or block) and a closing line.
enum ValueShape {
    /// A value drawn on one line: a number, a quoted string, a case without payload, `nil`, `[]`.
    case leaf(String)
    /// A value drawn as `open`, its children, then `close`.
    case container(Container)

    /// A struct, class, enum payload, tuple or collection with at least one child.
    struct Container {
        /// The opening line: `CounterState(`, `[`, `.loaded(`, `Set([`.
        var open: String
        /// The closing line: `)`, `]`, `])`.
        var close: String
        /// The children, in the order they are drawn.
        var children: [Child]
        /// Whether the children are elements of a collection (and so may be cut off when
        /// there are many), rather than fields.
        var isCollection: Bool
        /// The instance, when the value is a class instance, for the cycle guard.
        var object: ObjectIdentifier?
    }

    /// One child of a container; `label` is the field name, dictionary key or payload label.
    struct Child {
        var label: String?
        var value: Any
    }

    /// Which shape `value` has. `inline` draws a value on one line (used for dictionary keys and
    /// for ordering set elements that are not `Comparable`).
    static func of(_ value: Any, leafKinds: inout [ObjectIdentifier: LeafKind], inline: (Any) -> String) -> ValueShape {
        let kind = leafKind(of: value, cache: &leafKinds)
        if kind != .mirrored, let leaf = wellKnownLeaf(value, kind: kind) {
            return .leaf(leaf)
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return .leaf("nil") }
            return of(wrapped.value, leafKinds: &leafKinds, inline: inline)
        case .collection:
            return collection(mirror.children.map { Child(label: nil, value: $0.value) }, open: "[", close: "]", empty: "[]")
        case .dictionary:
            return dictionary(mirror, inline: inline)
        case .set:
            let elements = sorted(mirror.children.map { $0.value }, by: { $0 }, inline: inline)
            return collection(elements.map { Child(label: nil, value: $0) }, open: "Set([", close: "])", empty: "Set([])")
        case .tuple:
            let children = mirror.children.map { Child(label: fieldLabel($0.label), value: $0.value) }
            return fields(children, open: "(", close: ")", object: nil)
        case .enum:
            return enumCase(value, mirror: mirror, leafKinds: &leafKinds, inline: inline)
        case .class:
            let object = ObjectIdentifier(value as AnyObject)
            return fields(classFields(mirror), open: typeName(of: value) + "(", close: ")", object: object)
        default:
            // Structs, and types with a custom mirror of no particular style.
            let children = mirror.children.map { Child(label: fieldLabel($0.label), value: $0.value) }
            if children.isEmpty && mirror.displayStyle != .struct {
                return .leaf(singleLine(String(describing: value)))
            }
            return fields(children, open: typeName(of: value) + "(", close: ")", object: nil)
        }
    }

    // MARK: - Leaves

    /// Which drawing a type gets without its mirror, worked out once per type (dynamic casts
    /// dominate the cost of drawing large collections).
    enum LeafKind {
        case string, substring, character, date, uuid, url, decimal, duration, data
        /// Numbers and booleans: their description.
        case described
        /// Everything else: read through its mirror.
        case mirrored

        init(of value: Any) {
            // Casts see through optionals; an optional type is unwrapped through its mirror, and
            // the wrapped value's own type decides.
            guard Mirror(reflecting: value).displayStyle != .optional else {
                self = .mirrored
                return
            }
            switch value {
            case is String: self = .string
            case is Substring: self = .substring
            case is Character: self = .character
            case is Date: self = .date
            case is UUID: self = .uuid
            case is URL: self = .url
            case is Decimal: self = .decimal
            case is Duration: self = .duration
            case is Data: self = .data
            case is any BinaryInteger, is any BinaryFloatingPoint, is Bool: self = .described
            default: self = .mirrored
            }
        }
    }

    /// Strings quoted, numbers as written, and Foundation values whose mirrors show storage
    /// (pointers, internals) rather than what they mean. `kind` is what ``LeafKind/init(of:)``
    /// found for a value of the same type.
    static func wellKnownLeaf(_ value: Any, kind: LeafKind) -> String? {
        switch kind {
        case .string: return (value as? String).map { String(reflecting: $0) }
        case .substring: return (value as? Substring).map { String(reflecting: String($0)) }
        case .character: return (value as? Character).map { String(reflecting: String($0)) }
        case .date: return (value as? Date).map { "Date(\($0))" }
        case .uuid: return (value as? UUID).map { "UUID(\($0.uuidString))" }
        case .url: return (value as? URL).map { "URL(\(String(reflecting: $0.absoluteString)))" }
        case .decimal: return (value as? Decimal).map { "Decimal(\($0))" }
        case .duration: return (value as? Duration).map { "Duration(\($0))" }
        case .data: return (value as? Data).map(dataDescription)
        case .described:
            return String(describing: value)
        case .mirrored: return nil
        }
    }

    /// Small data in hex; large data by size and digest.
    private static func dataDescription(_ data: Data) -> String {
        if data.count <= 32 {
            let hex = data.map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
            return "Data(\(data.count) bytes: \(hex))"
        }
        var fingerprint = Fingerprint()
        fingerprint.combine(bytes: data)
        return "Data(\(data.count) bytes, digest \(fingerprint.digest))"
    }

    /// A description kept on one line, since each line of a rendering is one unit of the diff.
    static func singleLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    // MARK: - Containers

    private static func collection(_ children: [Child], open: String, close: String, empty: String) -> ValueShape {
        if children.isEmpty {
            return .leaf(empty)
        }
        return .container(Container(open: open, close: close, children: children, isCollection: true, object: nil))
    }

    private static func fields(_ children: [Child], open: String, close: String, object: ObjectIdentifier?) -> ValueShape {
        if children.isEmpty && object == nil {
            return .leaf(open + close)
        }
        return .container(Container(open: open, close: close, children: children, isCollection: false, object: object))
    }

    /// Entries ordered by key: by `<` where the keys are `Comparable`, else by their drawing.
    private static func dictionary(_ mirror: Mirror, inline: (Any) -> String) -> ValueShape {
        let entries: [(key: Any, value: Any)] = mirror.children.map { entry in
            let pair = Array(Mirror(reflecting: entry.value).children)
            guard pair.count == 2 else { return (key: entry.label ?? "?", value: entry.value) }
            return (key: pair[0].value, value: pair[1].value)
        }
        let ordered = sorted(entries, by: { $0.key }, inline: inline)
        let children = ordered.map { entry in Child(label: inline(entry.key), value: entry.value) }
        return collection(children, open: "[", close: "]", empty: "[:]")
    }

    /// A case without payload as `.name` (or its own description when it has one); a case with
    /// a payload of a few short leaves on one line (`.loaded(3)`), else as a container.
    private static func enumCase(
        _ value: Any,
        mirror: Mirror,
        leafKinds: inout [ObjectIdentifier: LeafKind],
        inline: (Any) -> String
    ) -> ValueShape {
        guard let payload = mirror.children.first else {
            return .leaf(noPayloadCase(value))
        }
        let name = "." + (payload.label ?? String(describing: value))
        let payloadMirror = Mirror(reflecting: payload.value)
        let children: [Child]
        if payloadMirror.displayStyle == .tuple {
            children = payloadMirror.children.map { Child(label: fieldLabel($0.label), value: $0.value) }
        } else {
            children = [Child(label: nil, value: payload.value)]
        }
        var parts: [String] = []
        for child in children {
            guard let text = leafText(of: child.value, leafKinds: &leafKinds) else { break }
            parts.append(child.label.map { "\($0): \(text)" } ?? text)
        }
        let joined = parts.joined(separator: ", ")
        if parts.count == children.count && joined.count <= 80 {
            return .leaf("\(name)(\(joined))")
        }
        return .container(Container(open: name + "(", close: ")", children: children, isCollection: false, object: nil))
    }

    /// The one-line drawing of `value` when it is a leaf, found without looking inside any
    /// container (so a payload nested thousands of levels deep costs no more than a flat one).
    private static func leafText(of value: Any, leafKinds: inout [ObjectIdentifier: LeafKind]) -> String? {
        let kind = leafKind(of: value, cache: &leafKinds)
        if kind != .mirrored {
            return wellKnownLeaf(value, kind: kind)
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return "nil" }
            return leafText(of: wrapped.value, leafKinds: &leafKinds)
        case .collection, .dictionary, .set, .tuple, .struct, .class:
            return nil
        case .enum:
            guard mirror.children.isEmpty else { return nil }
            return noPayloadCase(value)
        default:
            guard mirror.children.isEmpty else { return nil }
            return singleLine(String(describing: value))
        }
    }

    /// A case without payload: `.name`, or its own description when it has one.
    private static func noPayloadCase(_ value: Any) -> String {
        if value is CustomStringConvertible || value is CustomDebugStringConvertible {
            return singleLine(String(describing: value))
        }
        return "." + String(describing: value)
    }

    private static func leafKind(of value: Any, cache: inout [ObjectIdentifier: LeafKind]) -> LeafKind {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let known = cache[type] {
            return known
        }
        let kind = LeafKind(of: value)
        cache[type] = kind
        return kind
    }

    /// The stored properties of an instance, its superclasses' first.
    private static func classFields(_ mirror: Mirror) -> [Child] {
        var levels: [Mirror] = [mirror]
        while let superclass = levels.last?.superclassMirror {
            levels.append(superclass)
        }
        return levels.reversed().flatMap { level in
            level.children.map { Child(label: fieldLabel($0.label), value: $0.value) }
        }
    }

    /// A field's label, or nil for the positional labels (`.0`) of unlabelled tuple elements.
    private static func fieldLabel(_ label: String?) -> String? {
        guard let label, !label.hasPrefix(".") else { return nil }
        return label
    }

    /// The type's name as written in code: `CounterState`, `Box<Int>`.
    private static func typeName(of value: Any) -> String {
        String(describing: type(of: value))
    }

    // MARK: - Ordering

    /// Orders `items` by the key `key` picks: with `<` where the keys are `Comparable` values of
    /// one type, else by their one-line drawing (so the order does not depend on hashing).
    private static func sorted<Item>(_ items: [Item], by key: (Item) -> Any, inline: (Any) -> String) -> [Item] {
        guard items.count > 1 else { return items }
        let keys = items.map(key)
        if let order = comparableOrder(keys) {
            return order.map { items[$0] }
        }
        let drawn = keys.map(inline)
        return items.indices.sorted { drawn[$0] < drawn[$1] || (drawn[$0] == drawn[$1] && $0 < $1) }.map { items[$0] }
    }

    /// The indices of `keys` in ascending order, when every key is `Comparable` and of one type.
    private static func comparableOrder(_ keys: [Any]) -> [Int]? {
        guard let first = keys.first as? any Comparable else { return nil }
        return order(keys, as: first)
    }

    private static func order<Key: Comparable>(_ keys: [Any], as _: Key) -> [Int]? {
        var typed: [Key] = []
        typed.reserveCapacity(keys.count)
        for key in keys {
            guard let key = key as? Key else { return nil }
            typed.append(key)
        }
        return typed.indices.sorted { typed[$0] < typed[$1] || (!(typed[$1] < typed[$0]) && $0 < $1) }
    }
}
