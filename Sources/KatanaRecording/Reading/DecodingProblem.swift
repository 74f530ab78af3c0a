/// A decoding error said in a line, for the errors that name a recording's line or item.
enum DecodingProblem {
    /// What `error` says went wrong, with the path of keys where it did.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "it is not valid JSON" : "its \"\(path(context.codingPath))\" is not valid (\(context.debugDescription))"
        case .keyNotFound(let key, let context):
            return "it has no \"\(path(context.codingPath + [key]))\""
        case .typeMismatch(let type, let context):
            return "its \"\(path(context.codingPath))\" is not a \(type)"
        case .valueNotFound(_, let context):
            return "its \"\(path(context.codingPath))\" is null"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
