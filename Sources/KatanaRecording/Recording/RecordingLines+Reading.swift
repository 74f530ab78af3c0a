import Foundation
import Katana

extension RecordingLines {
    /// A line after the header, as read.
    enum Line {
        case entry(Entry)
        case end(RecordedEnd)
        case gap(UInt64)
    }

    /// A line's JSON that is not the line it should be: what is wrong, said for the reader's error.
    struct Problem: Error {
        let reason: String
    }

    /// Reads a line after the header from its JSON (what `Codable` would, without its cost: a
    /// recording of 100,000 items is read in a fraction of the time).
    static func line(from json: JSONValue) throws(Problem) -> Line {
        guard case .object(let fields) = json else { throw Problem(reason: "it is not a JSON object") }
        let reader = FieldReader(fields: fields, path: "")
        if fields["position"] == nil, fields["gap"] != nil {
            return .gap(try reader.unsigned("gap"))
        }
        if fields["position"] == nil, fields["end"] != nil {
            return .end(try end(reader))
        }
        var entry = Entry(
            position: try reader.unsigned("position"), sequence: try reader.unsigned("sequence"), time: try reader.number("time"),
            origin: try origin(reader.object("origin")), type: try reader.string("type"),
            kind: try reader.kind("kind"), replayable: try reader.bool("replayable"), outcome: try reader.string("outcome")
        )
        entry.item = reader.optional("item")
        entry.rendering = try reader.optionalString("rendering")
        entry.error = try reader.optionalString("error")
        entry.correlation = try reader.optionalString("correlation")
        entry.state = reader.optional("state")
        if let changes = reader.optional("changes") {
            entry.changes = try patch(changes)
        }
        return .entry(entry)
    }

    /// A side effect's end (see ``End``).
    private static func end(_ reader: FieldReader) throws(Problem) -> RecordedEnd {
        let outcome: RecordedEnd.Outcome
        switch try reader.string("outcome") {
        case "succeeded":
            outcome = .succeeded
        case "failed":
            outcome = .failed(try reader.optionalString("error") ?? "")
        case "cancelled":
            let name = try reader.string("cancelledBy")
            guard let canceller = SideEffectEnd.Canceller(rawValue: name) else {
                throw Problem(reason: "its \"cancelledBy\" is not valid (not one of promise, id, latestWins, shutdown)")
            }
            outcome = .cancelled(by: canceller)
        default:
            throw Problem(reason: "its \"outcome\" is not valid (not one of succeeded, failed, cancelled)")
        }
        let seconds = try reader.number("duration")
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { throw Problem(reason: "its \"duration\" is not a number of seconds from 0") }
        let began: Bool
        if let flag = reader.optional("began") {
            guard case .bool(let value) = flag else { throw Problem(reason: "its \"began\" is not a Bool") }
            began = value
        } else {
            began = true
        }
        return RecordedEnd(
            sequence: try reader.unsigned("end"), typeName: try reader.string("type"),
            time: Date(timeIntervalSince1970: try reader.number("time")), outcome: outcome,
            duration: .microseconds(Int64((seconds * 1_000_000).rounded())), began: began
        )
    }

    private static func origin(_ reader: FieldReader) throws(Problem) -> Origin {
        var origin = Origin(.outside)
        origin.from = try reader.string("from")
        origin.type = try reader.optionalString("type")
        origin.sequence = try reader.optional("sequence").map { value throws(Problem) in try reader.unsigned("sequence", value) }
        origin.label = try reader.optionalString("label")
        return origin
    }

    private static func patch(_ json: JSONValue) throws(Problem) -> JSONPatch {
        guard case .array(let elements) = json else { throw Problem(reason: "its \"changes\" is not an array") }
        var operations: [JSONPatch.Operation] = []
        for (index, element) in elements.enumerated() {
            guard case .object(let fields) = element else { throw Problem(reason: "its \"changes.[\(index)]\" is not an object") }
            let reader = FieldReader(fields: fields, path: "changes.[\(index)].")
            guard case .array(let path)? = fields["p"] else { throw Problem(reason: "its \"changes.[\(index)].p\" is not an array") }
            var operation = JSONPatch.Operation(path: path)
            operation.value = fields["v"]
            if let length = reader.optional("n") {
                operation.length = Int(try reader.unsigned("n", length))
            }
            if let removed = reader.optional("d") {
                guard case .bool(let flag) = removed else { throw Problem(reason: "its \"changes.[\(index)].d\" is not a Bool") }
                operation.removed = flag
            }
            operations.append(operation)
        }
        return JSONPatch(operations: operations)
    }

    /// Reads one object's fields, naming them in its problems as `DecodingProblem` does.
    private struct FieldReader {
        let fields: [String: JSONValue]
        /// The object's place in the line, before its keys ("" at the top).
        let path: String

        func object(_ key: String) throws(Problem) -> FieldReader {
            guard case .object(let inner) = try required(key) else { throw mismatch(key, "Dictionary<String, Any>") }
            return FieldReader(fields: inner, path: path + key + ".")
        }

        func string(_ key: String) throws(Problem) -> String {
            guard case .string(let text) = try required(key) else { throw mismatch(key, "String") }
            return text
        }

        func bool(_ key: String) throws(Problem) -> Bool {
            guard case .bool(let flag) = try required(key) else { throw mismatch(key, "Bool") }
            return flag
        }

        func number(_ key: String) throws(Problem) -> Double {
            switch try required(key) {
            case .integer(let value): return Double(value)
            case .number(let value): return value
            default: throw mismatch(key, "Double")
            }
        }

        func unsigned(_ key: String) throws(Problem) -> UInt64 {
            try unsigned(key, required(key))
        }

        func unsigned(_ key: String, _ value: JSONValue) throws(Problem) -> UInt64 {
            guard case .integer(let number) = value, number >= 0 else { throw mismatch(key, "UInt64") }
            return UInt64(number)
        }

        func kind(_ key: String) throws(Problem) -> RecordedItemKind {
            guard let kind = RecordedItemKind(rawValue: try string(key)) else {
                throw Problem(reason: "its \"\(path)\(key)\" is not valid (not one of updater, sideEffect, other)")
            }
            return kind
        }

        /// The value at `key`; nil when it is absent or null.
        func optional(_ key: String) -> JSONValue? {
            guard let value = fields[key], value != .null else { return nil }
            return value
        }

        func optionalString(_ key: String) throws(Problem) -> String? {
            guard let value = optional(key) else { return nil }
            guard case .string(let text) = value else { throw mismatch(key, "String") }
            return text
        }

        private func required(_ key: String) throws(Problem) -> JSONValue {
            guard let value = fields[key] else { throw Problem(reason: "it has no \"\(path)\(key)\"") }
            guard value != .null else { throw Problem(reason: "its \"\(path)\(key)\" is null") }
            return value
        }

        private func mismatch(_ key: String, _ type: String) -> Problem {
            Problem(reason: "its \"\(path)\(key)\" is not a \(type)")
        }
    }
}
