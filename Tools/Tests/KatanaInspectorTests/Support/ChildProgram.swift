import Foundation
import KatanaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program built next to these tests (`katana-inspector`, `katana-inspected-demo`) run as a
/// child process, as a user runs it: what it prints on one stream goes to a file the test reads
/// as it grows, the other stream nowhere. Nothing signals a child's output or its end, so the
/// waits on them poll. Stop it when done (`defer { program.stop() }`): it is killed if it runs.
struct ChildProgram {
    /// Which of its streams the test reads.
    enum Printing {
        case standardOutput, standardError
    }

    let process: Process
    /// The file what it prints goes to.
    let output: URL

    /// The program `name` built next to these tests.
    static func built(_ name: String) throws -> URL {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let url = URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build \(name) first")
        return url
    }

    /// Starts `executable` with `arguments`, what it writes on `printing` going to a file.
    static func start(_ executable: URL, _ arguments: [String], printing: Printing = .standardOutput) throws -> ChildProgram {
        let output = temporaryFile("\(executable.lastPathComponent)-output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let file = try FileHandle(forWritingTo: output)
        process.standardOutput = printing == .standardOutput ? file : FileHandle.nullDevice
        process.standardError = printing == .standardError ? file : FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: output)
            throw error
        }
        return ChildProgram(process: process, output: output)
    }

    /// What it has printed so far.
    var printed: String {
        (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    /// Suspends until it has printed `text`, naming `what` if it has not within `timeout`.
    func untilItPrints(_ text: String, _ what: String, timeout: Duration = defaultTestTimeout) async throws {
        try await poll(what, timeout: timeout) { printed.contains(text) }
    }

    /// Suspends until it has ended.
    func untilItEnds(timeout: Duration = defaultTestTimeout) async throws {
        try await poll("\(process.executableURL?.lastPathComponent ?? "the program") to end", timeout: timeout) { !process.isRunning }
    }

    /// Kills it if it still runs, and removes what it printed.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: output)
    }
}
