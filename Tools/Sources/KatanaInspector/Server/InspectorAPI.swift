import Foundation
import KatanaRecording

/// The JSON the page reads (docs/Inspecting.md, "Its API"), built from the history.
enum InspectorAPI {
    /// The most items one request returns.
    static let maximumItemsPerRequest = 50_000
    /// Items one request returns when it does not say.
    static let defaultItemsPerRequest = 10_000

    static func summary(_ summary: HistorySummary) -> JSONValue {
        .object([
            "source": .string(summary.source),
            "live": .bool(summary.live),
            "stateType": .string(summary.header.stateType),
            "started": .number(summary.header.started.timeIntervalSince1970),
            "statesRecorded": .bool(summary.header.statesRecorded),
            "count": .integer(Int64(summary.count)),
            "firstPosition": .integer(Int64(summary.firstPosition)),
            "lastPosition": .integer(Int64(summary.lastPosition)),
            "gaps": .array(summary.gaps.map { .object(["after": .integer(Int64($0.after)), "dropped": .integer(Int64($0.dropped))]) }),
            "warnings": .array(summary.warnings.map(JSONValue.string)),
        ])
    }

    /// A batch of timeline rows, with the counts they go with; `type` is "items" on the live stream.
    static func rows(_ items: [InspectedItem], summary: HistorySummary, type: String? = nil) -> JSONValue {
        var fields: [String: JSONValue] = [
            "count": .integer(Int64(summary.count)),
            "firstPosition": .integer(Int64(summary.firstPosition)),
            "lastPosition": .integer(Int64(summary.lastPosition)),
            "rows": .array(items.map(row)),
        ]
        if let type {
            fields["type"] = .string(type)
        }
        return .object(fields)
    }

    /// One timeline row: position, sequence, time in milliseconds, type, kind, origin (where from,
    /// name, sequence), outcome, preview, error.
    static func row(_ item: InspectedItem) -> JSONValue {
        let origin = item.originParts
        let outcome = item.outcomeParts
        return .array([
            .integer(Int64(item.position)),
            .integer(Int64(item.sequence)),
            .integer(milliseconds(item.time)),
            .string(item.typeName),
            .string(item.kind.rawValue),
            .string(origin.from),
            origin.name.map(JSONValue.string) ?? .null,
            .integer(Int64(origin.sequence)),
            .string(outcome.name),
            .string(item.preview),
            outcome.error.map(JSONValue.string) ?? .null,
        ])
    }

    /// A time in seconds since 1970 as the API sends every time: whole milliseconds, rounded to
    /// the nearest, so that a row and a detail show the same one.
    static func milliseconds(_ seconds: Double) -> Int64 {
        let milliseconds = (seconds * 1000).rounded()
        return milliseconds.isFinite && abs(milliseconds) < 9e15 ? Int64(milliseconds) : 0
    }

    static func detail(_ detail: ItemDetail) -> JSONValue {
        let item = detail.item
        let origin = item.originParts
        let outcome = item.outcomeParts
        return .object([
            "position": .integer(Int64(item.position)),
            "sequence": .integer(Int64(item.sequence)),
            "time": .integer(milliseconds(item.time)),
            "type": .string(item.typeName),
            "kind": .string(item.kind.rawValue),
            "origin": .object([
                "from": .string(origin.from),
                "name": origin.name.map(JSONValue.string) ?? .null,
                "sequence": .integer(Int64(origin.sequence)),
                "position": detail.originPosition.map { .integer(Int64($0)) } ?? .null,
            ]),
            "outcome": .string(outcome.name),
            "error": outcome.error.map(JSONValue.string) ?? .null,
            "item": item.item ?? .null,
            "rendering": item.rendering.map(JSONValue.string) ?? .null,
            "stateAfter": detail.stateAfter ?? .null,
            "changes": detail.changes.map { .array($0.map(change)) } ?? .null,
        ])
    }

    static func change(_ change: StateChange) -> JSONValue {
        var fields: [String: JSONValue] = [
            "path": .array(change.path.map { component in
                switch component {
                case .key(let key): .string(key)
                case .index(let index): .integer(Int64(index))
                }
            }),
            "op": .string(change.before == nil ? "add" : change.after == nil ? "remove" : "replace"),
        ]
        fields["before"] = change.before
        fields["after"] = change.after
        return .object(fields)
    }

    static func error(_ message: String) -> JSONValue {
        .object(["error": .string(message)])
    }
}
