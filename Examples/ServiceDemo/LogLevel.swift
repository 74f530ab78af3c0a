/// How much the service logs: a line is written when its level is at least the configured one.
enum LogLevel: String, CaseIterable, Comparable, Sendable, Codable {
    case debug, info, warning, error

    /// The level before a configuration has been loaded.
    static let beforeConfiguration = LogLevel.info

    /// The accepted names, for error messages and the usage text: "debug, info, warning or error".
    static var names: String {
        let all = allCases.map(\.rawValue)
        return all.dropLast().joined(separator: ", ") + " or " + all[all.count - 1]
    }

    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }
}
