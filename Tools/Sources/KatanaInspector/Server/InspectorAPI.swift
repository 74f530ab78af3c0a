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

    /// A batch of timeline rows, with the counts they go with and the side effects' ends known
    /// (`ends`, by sequence); `type` is "items" on the live stream. `endCursor`, when given, is
    /// where the live stream's ends pick up for a page that read these rows.
    static func rows(
        _ items: [InspectedItem], ends: [UInt64: InspectedEnd] = [:], summary: HistorySummary,
        type: String? = nil, endCursor: UInt64? = nil
    ) -> JSONValue {
        var fields: [String: JSONValue] = [
            "count": .integer(Int64(summary.count)),
            "firstPosition": .integer(Int64(summary.firstPosition)),
            "lastPosition": .integer(Int64(summary.lastPosition)),
            "rows": .array(items.map { row($0, end: ends[$0.sequence]) }),
        ]
        if let type {
            fields["type"] = .string(type)
        }
        if let endCursor {
            fields["endCursor"] = .integer(Int64(endCursor))
        }
        return .object(fields)
    }

    /// One timeline row: position, sequence, time in milliseconds, type, kind, origin (where from,
    /// name, sequence), outcome, preview, error, for a side effect its end (``rowEnd(_:)``; null
    /// while it runs, and for other items), and the request it was dispatched for (its
    /// correlation; null when none was recorded).
    static func row(_ item: InspectedItem, end: InspectedEnd? = nil) -> JSONValue {
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
            end.map(rowEnd) ?? .null,
            item.correlation.map(JSONValue.string) ?? .null,
        ])
    }

    /// A side effect's end as a row carries it: outcome, duration in microseconds, the error or
    /// what cancelled it (null for a success), and whether its body began.
    static func rowEnd(_ end: InspectedEnd) -> JSONValue {
        .array(endFields(end))
    }

    private static func endFields(_ end: InspectedEnd) -> [JSONValue] {
        [.string(end.outcome.name), .integer(end.durationMicroseconds), end.detail.map(JSONValue.string) ?? .null, .bool(end.began)]
    }

    /// Ends for the live stream, each with its side effect's sequence first, then as in a row.
    static func ends(_ ends: [(sequence: UInt64, end: InspectedEnd)], endCursor: UInt64) -> JSONValue {
        .object([
            "type": .string("ends"),
            "ends": .array(ends.map { .array([.integer(Int64($0.sequence))] + endFields($0.end)) }),
            "endCursor": .integer(Int64(endCursor)),
        ])
    }

    /// The detail's `end` object: null when the item is not a side effect or has not ended.
    static func detailEnd(_ end: InspectedEnd?) -> JSONValue {
        guard let end else { return .null }
        var error: JSONValue = .null
        var cancelledBy: JSONValue = .null
        switch end.outcome {
        case .succeeded: break
        case .failed(let description): error = .string(description)
        case .cancelled(let canceller): cancelledBy = .string(canceller.rawValue)
        }
        return .object([
            "outcome": .string(end.outcome.name),
            "durationMicroseconds": .integer(end.durationMicroseconds),
            "error": error,
            "cancelledBy": cancelledBy,
            "began": .bool(end.began),
            "time": .integer(milliseconds(end.time)),
        ])
    }

    /// A time in seconds since 1970 as the API sends every time: whole milliseconds, rounded to
    /// the nearest, so that a row and a detail show the same one.
    static func milliseconds(_ seconds: Double) -> Int64 {
        let milliseconds = (seconds * 1000).rounded()
        return milliseconds.isFinite && abs(milliseconds) < 9e15 ? Int64(milliseconds) : 0
    }

    /// An item with the states around it, what it changed, the request it was dispatched for
    /// (`correlation`), and, for a side effect, its `end`.
    static func detail(_ detail: ItemDetail, end: InspectedEnd? = nil) -> JSONValue {
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
            "correlation": item.correlation.map(JSONValue.string) ?? .null,
            "item": item.item ?? .null,
            "rendering": item.rendering.map(JSONValue.string) ?? .null,
            "stateAfter": detail.stateAfter ?? .null,
            "changes": detail.changes.map { .array($0.map(change)) } ?? .null,
            "end": detailEnd(end),
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
