/// Where an item comes from, as its envelope carries it: two words, copied without a retain.
/// Made public as ``DispatchOrigin`` when an interceptor asks.
struct OriginStamp: @unchecked Sendable, Equatable {
    // @unchecked: a metatype and an integer, both immutable.

    /// The side effect that dispatched the item; nil for any other origin.
    private let dispatcher: Any.Type?
    /// With a dispatcher, that side effect's place in dispatch order. Without: 0 for an item from
    /// outside, 1 for the store's unlabelled work, and `2 + n` for the label numbered `n`.
    private let number: UInt64

    @inline(__always)
    private init(dispatcher: Any.Type?, number: UInt64) {
        self.dispatcher = dispatcher
        self.number = number
    }

    /// Dispatched from outside the store.
    static var outside: OriginStamp { OriginStamp(dispatcher: nil, number: 0) }

    /// Dispatched by the store's work, with no label.
    static var storeWork: OriginStamp { OriginStamp(dispatcher: nil, number: 1) }

    /// Dispatched by a side effect of type `type`, whose place in dispatch order is `sequence`.
    @inline(__always)
    static func sideEffect(_ type: Any.Type, sequence: UInt64) -> OriginStamp {
        OriginStamp(dispatcher: type, number: sequence)
    }

    /// Dispatched by the store's work labelled `label`.
    static func storeWork(label: String) -> OriginStamp {
        OriginStamp(dispatcher: nil, number: 2 + OriginLabels.number(for: label))
    }

    static func == (lhs: OriginStamp, rhs: OriginStamp) -> Bool {
        lhs.number == rhs.number && lhs.dispatcher.map(ObjectIdentifier.init) == rhs.dispatcher.map(ObjectIdentifier.init)
    }

    /// The origin it stands for.
    var origin: DispatchOrigin {
        if let dispatcher {
            return .sideEffect(type: OriginLabels.name(of: dispatcher), sequence: number)
        }
        switch number {
        case 0: return .outside
        case 1: return .storeWork(label: nil)
        default: return .storeWork(label: OriginLabels.label(numbered: number - 2))
        }
    }
}

/// The labels contexts were given (``AnySideEffectContext/labelled(_:)``), numbered in the order
/// first seen, so that an envelope carries a number instead of a string. Labels name pieces of
/// work (an observer rule, a job), so there are few; each is kept for the process's lifetime, as
/// are the names of the side effect types that dispatched.
enum OriginLabels {
    private static let table = Locked<(numbers: [String: UInt64], labels: [String])>(([:], []))

    /// The number of `label`, given it the first time.
    static func number(for label: String) -> UInt64 {
        table.withLock { table in
            if let number = table.numbers[label] {
                return number
            }
            let number = UInt64(table.labels.count)
            table.labels.append(label)
            table.numbers[label] = number
            return number
        }
    }

    private static let typeNames = Locked<[ObjectIdentifier: String]>([:])

    /// The fully qualified name of the side effect type `type`, worked out once per type (an
    /// interceptor reading origins asks for it on every item a side effect dispatches).
    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = typeNames.withLock({ $0[key] }) {
            return name
        }
        let name = typeName(type)
        typeNames.withLock { $0[key] = name }
        return name
    }

    /// The label numbered `number`; nil for a number no label has.
    static func label(numbered number: UInt64) -> String? {
        table.withLock { table in
            number < UInt64(table.labels.count) ? table.labels[Int(number)] : nil
        }
    }
}
