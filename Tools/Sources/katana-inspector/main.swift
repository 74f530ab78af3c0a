import Foundation
import KatanaInspector

// katana-inspector <recording>: reads the recording, serves its page, and runs until SIGTERM or SIGINT.
let command: InspectorCommand
do {
    command = try InspectorCommand(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        // The message may quote an argument, which is written out escaped.
        FileHandle.standardError.write(Data("katana-inspector: \(TerminalText.escaped(message))\n\n\(InspectorCommand.usage)\n".utf8))
        exit(2)
    }
    print(InspectorCommand.usage)
    exit(0)
}
do {
    let server = try InspectorServer(recordingAt: command.path, configuration: command.configuration)
    try await server.run(stopsOnSignals: true) { url in
        // Written at once (not buffered): scripts wait for this line to learn the address.
        let path = TerminalText.escaped(command.path)
        FileHandle.standardOutput.write(Data("katana-inspector: serving \(path) at \(url.absoluteString)\n".utf8))
    }
} catch {
    // A file's name and first line, or an address, may appear in the error.
    TerminalText.report("katana-inspector: ", escaping: error)
    exit(1)
}
