/// What the command line asked for.
struct CommandLineOptions: Sendable {
    /// The JSON configuration file, if one was given.
    var configPath: String?
    /// Run until SIGTERM/SIGINT instead of the scripted tour.
    var serve = false

    /// A command-line mistake, as one line for the user.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = "usage: katana-service-demo [--config PATH] [--serve]"

    /// Parses the arguments (without the program name).
    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        var options = CommandLineOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--config":
                guard let path = remaining.popFirst(), !path.hasPrefix("--") else {
                    throw UsageError(description: "--config needs a file path (\(usage))")
                }
                options.configPath = path
            case "--serve":
                options.serve = true
            case "--help", "-h":
                throw UsageError(description: usage)
            default:
                throw UsageError(description: "unknown option '\(argument)' (\(usage))")
            }
        }
        return options
    }
}
