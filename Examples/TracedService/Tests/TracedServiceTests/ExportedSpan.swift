import Foundation

/// A span as an OTLP/HTTP JSON export carries it, with the name of the service that sent it.
struct ExportedSpan: CustomStringConvertible {
    /// The OTLP span kinds the tests look for.
    enum Kind: Int {
        case unspecified = 0, `internal`, server, client, producer, consumer
    }

    /// The OTLP status codes.
    enum StatusCode: Int {
        case unset = 0, ok, error
    }

    var service: String
    var traceID: String
    var spanID: String
    var parentSpanID: String
    var name: String
    var kind: Kind
    /// The span's string, integer and boolean attributes, as text.
    var attributes: [String: String]
    var statusCode: StatusCode

    var description: String {
        "\(service): \(name) [\(kind)] \(spanID) ← \(parentSpanID.isEmpty ? "root" : parentSpanID)"
    }

    /// The spans in one export request's body (`ExportTraceServiceRequest` in its JSON encoding).
    static func spans(inExport body: Data) throws -> [ExportedSpan] {
        let root = try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
        var spans: [ExportedSpan] = []
        for resourceSpans in root["resourceSpans"] as? [[String: Any]] ?? [] {
            let resource = resourceSpans["resource"] as? [String: Any] ?? [:]
            let service = texts(resource["attributes"])["service.name"] ?? ""
            for scopeSpans in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scopeSpans["spans"] as? [[String: Any]] ?? [] {
                    spans.append(
                        ExportedSpan(
                            service: service,
                            traceID: hex(span["traceId"]),
                            spanID: hex(span["spanId"]),
                            parentSpanID: hex(span["parentSpanId"]),
                            name: span["name"] as? String ?? "",
                            kind: Kind(rawValue: (span["kind"] as? NSNumber)?.intValue ?? 0) ?? .unspecified,
                            attributes: texts(span["attributes"]),
                            statusCode: StatusCode(rawValue: ((span["status"] as? [String: Any])?["code"] as? NSNumber)?.intValue ?? 0) ?? .unset
                        )
                    )
                }
            }
        }
        return spans
    }

    /// An id as lowercase hex: OTLP's JSON encoding gives ids in hex, protobuf's general JSON
    /// mapping (bytes) in base64; either is read.
    private static func hex(_ value: Any?) -> String {
        guard let text = value as? String, !text.isEmpty else { return "" }
        if text.count % 2 == 0, text.allSatisfy(\.isHexDigit) {
            return text.lowercased()
        }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// OTLP key-value attributes as text.
    private static func texts(_ value: Any?) -> [String: String] {
        var texts: [String: String] = [:]
        for pair in value as? [[String: Any]] ?? [] {
            guard let key = pair["key"] as? String, let any = pair["value"] as? [String: Any] else { continue }
            if let text = any["stringValue"] as? String {
                texts[key] = text
            } else if let number = any["intValue"] {
                texts[key] = "\(number)"
            } else if let flag = any["boolValue"] as? Bool {
                texts[key] = "\(flag)"
            }
        }
        return texts
    }
}
