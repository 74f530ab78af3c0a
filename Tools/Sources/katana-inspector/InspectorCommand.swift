import Foundation
import KatanaInspector

/// `katana-inspector`'s command line: the recording and how to serve it.
struct InspectorCommand {
    var path: String
    var configuration = InspectorConfiguration()

    static let usage = """
        usage: katana-inspector <recording file> [--host ADDRESS] [--port N] [--token TOKEN] [--max-line-bytes N]
                                [--head-timeout SECONDS] [--idle-timeout SECONDS] [--max-connections N]

        Serves a page that shows the recording: open the address it prints.
          --host ADDRESS            where to listen (default 127.0.0.1; any other address needs --token)
          --port N                  the port (default 7766; 0 takes a free one)
          --token TOKEN             a secret every request must carry, 16 to 256 letters, digits, '-', '_' or '.'
                                    ('auto' makes a random one); the printed address includes it
          --max-line-bytes N        the longest line read (default 67108864)
          --head-timeout SECONDS    how long a connection may take to send a request's head (default 5)
          --idle-timeout SECONDS    how long a connection may wait between requests (default 30)
          --max-connections N       connections open at once; more are closed at once (default 128)
        """

    /// Reads the arguments (without the program's name); throws a message for bad ones.
    init(arguments: [String]) throws(UsageError) {
        var path: String?
        var index = 0
        func value(for option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(option) needs a value") }
            return arguments[index]
        }
        func number(for option: String) throws(UsageError) -> Int {
            let text = try value(for: option)
            guard let number = Int(text), number >= 0 else { throw UsageError("\(option) takes a whole number, not '\(text)'") }
            return number
        }
        func seconds(for option: String) throws(UsageError) -> Duration {
            let text = try value(for: option)
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                throw UsageError("\(option) takes a number of seconds above 0 (at most 86400), not '\(text)'")
            }
            return .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--host": configuration.host = try value(for: argument)
            case "--port": configuration.port = try number(for: argument)
            case "--token":
                let token = try value(for: argument)
                configuration.token = token == "auto" ? InspectorConfiguration.generatedToken() : token
            case "--max-line-bytes": configuration.maximumLineLength = try number(for: argument)
            case "--head-timeout": configuration.requestHeadTimeout = try seconds(for: argument)
            case "--idle-timeout": configuration.idleTimeout = try seconds(for: argument)
            case "--max-connections": configuration.maximumConnections = try number(for: argument)
            case "-h", "--help": throw UsageError(nil)
            default:
                guard !argument.hasPrefix("-") else { throw UsageError("unknown option \(argument)") }
                guard path == nil else { throw UsageError("give one recording file, not '\(path ?? "")' and '\(argument)'") }
                path = argument
            }
            index += 1
        }
        guard let path else { throw UsageError("give the recording file to show") }
        self.path = path
    }

    /// A command line that cannot be run: what is wrong (nil when help was asked for).
    struct UsageError: Error {
        let message: String?
        init(_ message: String?) {
            self.message = message
        }
    }
}
