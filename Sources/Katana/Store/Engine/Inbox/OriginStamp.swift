/// Where an item comes from, as its envelope carries it: one word, copied without a retain
/// (docs/PERFORMANCE.md, "Dispatch origins"). Made public as ``DispatchOrigin`` when an
/// interceptor asks.
///
/// The top 16 bits number the side effect type that dispatched the item (0: none), and the low 48
/// bits hold that side effect's place in dispatch order. Without a side effect, the word is 0 for an
/// item from outside, 1 for the store's unlabelled work, and `2 + n` for the label numbered `n`.
struct OriginStamp: Sendable, Equatable {
    private let raw: UInt64

    private static var sequenceBits: UInt64 { 48 }
    private static var sequenceMask: UInt64 { (1 << sequenceBits) - 1 }

    @inline(__always)
    private init(raw: UInt64) {
        self.raw = raw
    }

    /// Dispatched from outside the store.
    static var outside: OriginStamp { OriginStamp(raw: 0) }

    /// Dispatched by the store's work, with no label.
    static var storeWork: OriginStamp { OriginStamp(raw: 1) }

    /// Dispatched by the store's work labelled `label`.
    static func storeWork(label: String) -> OriginStamp {
        OriginStamp(raw: 2 + OriginLabels.number(for: label))
    }

    /// The number stamps give the side effect type `type` (asked once per type, when its runner is
    /// made): 0 once 65,535 types have numbers, whose stamps then read as unlabelled store work.
    static func dispatcher(_ type: Any.Type) -> UInt64 {
        OriginLabels.number(of: type)
    }

    /// Dispatched by a side effect of the type numbered `dispatcher`, whose place in dispatch order
    /// is `sequence` (kept modulo 2^48).
    @inline(__always)
    static func sideEffect(dispatcher: UInt64, sequence: UInt64) -> OriginStamp {
        dispatcher == 0 ? .storeWork : OriginStamp(raw: dispatcher << sequenceBits | sequence & sequenceMask)
    }

    /// The origin it stands for.
    var origin: DispatchOrigin {
        let dispatcher = raw >> Self.sequenceBits
        if dispatcher != 0 {
            return .sideEffect(type: OriginLabels.nameOfType(numbered: dispatcher) ?? "?", sequence: raw & Self.sequenceMask)
        }
        switch raw {
        case 0: return .outside
        case 1: return .storeWork(label: nil)
        default: return .storeWork(label: OriginLabels.label(numbered: raw - 2))
        }
    }
}

/// The labels contexts were given (``AnySideEffectContext/labelled(_:)``) and the side effect types
/// that dispatch, numbered in the order first seen, so that an envelope carries a number instead of
/// a string. Labels name pieces of work (an observer rule, a job) and types are the app's, so there
/// are few; each is kept for the process's lifetime.
enum OriginLabels {
    private struct Table {
        var labelNumbers: [String: UInt64] = [:]
        var labels: [String] = []
        var typeNumbers: [ObjectIdentifier: UInt64] = [:]
        /// The fully qualified name of each numbered type, from number 1.
        var typeNames: [String] = []
    }

    private static let table = Locked(Table())
    /// How many side effect types can have a number (the top 16 bits of a stamp, without 0).
    private static var typeNumberLimit: Int { 65_535 }

    /// The number of `label`, given it the first time.
    static func number(for label: String) -> UInt64 {
        table.withLock { table in
            if let number = table.labelNumbers[label] {
                return number
            }
            let number = UInt64(table.labels.count)
            table.labels.append(label)
            table.labelNumbers[label] = number
            return number
        }
    }

    /// The label numbered `number`; nil for a number no label has.
    static func label(numbered number: UInt64) -> String? {
        table.withLock { table in
            number < UInt64(table.labels.count) ? table.labels[Int(number)] : nil
        }
    }

    /// The number of the side effect type `type` (from 1), given it the first time; 0 when every
    /// number is taken.
    static func number(of type: Any.Type) -> UInt64 {
        let key = ObjectIdentifier(type)
        if let number = table.withLock({ $0.typeNumbers[key] }) {
            return number
        }
        let name = typeName(type)
        return table.withLock { table in
            if let number = table.typeNumbers[key] {
                return number
            }
            guard table.typeNames.count < typeNumberLimit else { return 0 }
            table.typeNames.append(name)
            let number = UInt64(table.typeNames.count)
            table.typeNumbers[key] = number
            return number
        }
    }

    /// The name of the side effect type numbered `number`.
    static func nameOfType(numbered number: UInt64) -> String? {
        table.withLock { table in
            number >= 1 && number <= UInt64(table.typeNames.count) ? table.typeNames[Int(number - 1)] : nil
        }
    }
}
