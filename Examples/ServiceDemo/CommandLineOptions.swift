/// What the command line asked for.
struct CommandLineOptions: Sendable {
    /// The JSON configuration file, if one was given.
    var configPath: String?
    /// Run until SIGTERM/SIGINT instead of the scripted tour.
    var serve = false
    /// Record every item the store handles to this file (KatanaRecording), if given.
    var recordPath: String?
    /// Serve the inspector's page for the live store (the Tools package's build of the demo).
    var inspect = false
    /// The inspector's port on the loopback address (0 takes a free one).
    var inspectPort = 7766
    /// Print the usage text and exit, doing nothing else.
    var showsHelp = false

    /// A command-line mistake, as one line for the user.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = "usage: katana-service-demo [--config PATH] [--serve] [--record PATH] [--inspect [--inspect-port N]] [--help]"

    /// What `--help` prints.
    static let help = """
        \(usage)

        A small service built on a Katana store. Without --serve it plays a scripted tour
        (heartbeats, a search, a SIGHUP reload, a SIGTERM shutdown) and exits by itself.

        options:
          --config PATH  read the configuration from a JSON file, re-read on SIGHUP:
                           \(ServiceConfiguration.example)
                         logLevel: \(LogLevel.names)
                         heartbeatMilliseconds: \(ServiceConfiguration.heartbeatRange.lowerBound) (10 ms) \
        to \(ServiceConfiguration.heartbeatRange.upperBound) (1 hour)
                         (without it, a built-in configuration is used)
          --serve        run until SIGTERM or SIGINT; SIGHUP reloads the configuration
          --record PATH  record every item the store handles, with the state after it, to a
                         file of JSON lines (a KatanaRecording recording, which a test can replay)
          --inspect      serve a page that shows every item the store handles, live, on
                         http://127.0.0.1:7766/ (built by the Tools package: swift run
                         --package-path Tools katana-inspected-demo --inspect); after the tour,
                         the page stays up until Ctrl-C
          --inspect-port N  the inspector's port (0 takes a free one; the log says which)
          --help, -h     print this help and exit

        The log goes to standard error. A bad option or configuration ends the demo with a
        one-line error and exit code 2.
        """

    /// Parses the arguments (without the program name). `--help` anywhere wins over the rest.
    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        if arguments.contains("--help") || arguments.contains("-h") {
            return CommandLineOptions(showsHelp: true)
        }
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
            case "--record":
                guard let path = remaining.popFirst(), !path.hasPrefix("--") else {
                    throw UsageError(description: "--record needs a file path (\(usage))")
                }
                options.recordPath = path
            case "--inspect":
                options.inspect = true
            case "--inspect-port":
                guard let text = remaining.popFirst(), let port = Int(text), (0 ... 65_535).contains(port) else {
                    throw UsageError(description: "--inspect-port needs a port number from 0 to 65535 (\(usage))")
                }
                options.inspectPort = port
            default:
                throw UsageError(description: "unknown option '\(argument)' (\(usage))")
            }
        }
        return options
    }
}
