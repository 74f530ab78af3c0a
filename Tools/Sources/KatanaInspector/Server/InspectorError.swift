/// What stops the inspector from serving or from reading a recording; each says how to fix it.
public enum InspectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The inspector was asked to listen on an address other machines can reach, without a token.
    case tokenRequired(host: String)
    /// The token is shorter than 16 characters, longer than 256, or has characters a URL would
    /// have to escape.
    case invalidToken
    /// A line of the recording is longer than the inspector reads.
    case lineTooLong(path: String, line: Int, limit: Int)
    /// The port is not one a server can listen on.
    case invalidPort(Int)
    /// Another program (or another inspector) already listens on the address and port.
    case addressInUse(host: String, port: Int)
    /// A setting (named as in the configuration and on the command line) has a value it cannot take.
    case invalidSetting(name: String, value: String, expected: String)

    /// What happened and how to fix it.
    public var description: String {
        switch self {
        case .tokenRequired(let host):
            "The inspector shows the store's state, which may hold secrets: it listens on \(host), which other "
                + "machines can reach, only with a token. Pass one (--token, or InspectorConfiguration(token:)), or listen "
                + "on 127.0.0.1."
        case .invalidToken:
            "The inspector's token must be 16 to 256 letters, digits, '-', '_' or '.': long enough not to be guessed, and "
                + "fit to put in a URL as it is. Give a longer one, or let the inspector make one: --token auto (it prints the "
                + "address with the token), or InspectorConfiguration.generatedToken() in code."
        case let .lineTooLong(path, line, limit):
            "Line \(line) of \(path) is longer than \(limit) bytes, the most the inspector reads in one line; it is not a "
                + "recording's line, or its state is very large. Raise the limit (--max-line-bytes, or "
                + "InspectorConfiguration(maximumLineLength:)) if it is a real state."
        case .invalidPort(let port):
            "\(port) is not a port the inspector can listen on: give 0 (any free port) to 65535."
        case let .addressInUse(host, port):
            "Another program (or another inspector) is already listening on \(InspectorServer.authority(host: host, port: port)), "
                + "so the inspector cannot. Choose another port: --port N, or --port 0 for any free one (the address it prints "
                + "says which), or InspectorConfiguration(port:) in code."
        case let .invalidSetting(name, value, expected):
            "The inspector's \(name) is \(value); it must be \(expected)."
        }
    }
}
